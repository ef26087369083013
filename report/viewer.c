/* viewer.c: the report's game viewer: the games of a run as JSON, and the inline script and style that step through them. */
#include "report/viewer.h"

#include <stdlib.h>
#include <string.h>

#include "run/match.h"
#include "core/board.h"
#include "core/error.h"
#include "core/game.h"
#include "core/move_record.h"
#include "core/notation.h"
#include "core/variant.h"
#include "store/replay.h"

/* A JSON string that is also safe inside <script>: '<' is written \u003c. */
static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20 || c == '<' || c == '>' || c == '&') fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

static const char style[] =
    "#games .vcontrols{display:flex;flex-wrap:wrap;gap:.4em;align-items:center;margin:.5em 0}"
    "#games select{max-width:100%}"
    "#games button{font-size:1em;min-width:2.5em}"
    "#vboard{display:inline-grid;grid-template-columns:auto repeat(var(--h),3.2em) auto;"
    "gap:.3em;padding:.6em;background:#c8a165;border-radius:1.2em;margin:.5em 0}"
    "#vboard .house,#vboard .store{background:#8a5a2b;color:#fff;border-radius:50%;"
    "display:flex;flex-direction:column;align-items:center;justify-content:center;"
    "width:3.2em;height:3.2em;font-weight:bold;font-size:1em;box-sizing:border-box}"
    "#vboard .store{grid-row:1/3;height:auto;border-radius:1.2em;width:3.6em}"
    "#vboard .house small{font-weight:normal;font-size:.7em;opacity:.8}"
    "#vboard .last{outline:.25em solid #ffd400}"
    "#vboard .cap{background:#b3261e}"
    "#vstatus{font-family:monospace;white-space:pre-wrap}"
    "#vcurve{display:block;margin:.3em 0;background:#faf6ef;border:1px solid #c8a165}"
    "#vcurve polyline{fill:none;stroke:#8a5a2b;stroke-width:1.5}"
    "#vcurve line{stroke:#999;stroke-dasharray:3 3}#vcurve circle{fill:#b3261e}";

/* The script: reads the JSON and draws each step of a game. It knows no
 * rule of the game: every position, with the houses each move captured, was
 * computed by core/ and written into the data (frame_write below), so the
 * viewer shows what the rules did and cannot drift from them. Positions are
 * written as position strings into the board's data-pos, which the browser
 * test compares with `oware replay`. */
static const char script[] =
    "(function(){\n"
    "var D=JSON.parse(document.getElementById('viewer-data').textContent);\n"
    "var sel=document.getElementById('vgame'),bd=document.getElementById('vboard'),"
    "st=document.getElementById('vstatus');\n"
    "var frames=[],ply=0,G=null,H=0;\n"
    "function parse(s){var f=s.split('-'),side=f.pop()=='S'?0:1,n=f.map(Number);"
    "return{pit:n.slice(0,n.length-2),store:[n[n.length-2],n[n.length-1]],side:side};}\n"
    "function fmt(b){return b.pit.concat(b.store).join('-')+'-'+(b.side?'N':'S');}\n"
    "function letter(i){return i<H?String.fromCharCode(65+i):String.fromCharCode(97+i-H);}\n"
    "function index(c){var k=c.charCodeAt(0);return k>=97?H+k-97:k-65;}\n"
    /* One number a character: code point 0x3F + n, past 0x7E moved up by 0x21. */
    "function num(s,i){var c=s.charCodeAt(i);return c>=0xA0?c-0x60:c-0x3F;}\n"
    "function frame(s,k,side){var w=2*H+3,o=k*w,p=[],i,m;for(i=0;i<2*H;i++)p.push(num(s,o+i));\n"
    " var b={pit:p,store:[num(s,o+2*H),num(s,o+2*H+1)],side:side,caps:[]};m=num(s,o+2*H+2);\n"
    " for(i=0;i<H;i++)if(m>>i&1)b.caps.push(side*H+i);return b;}\n"
    /* The score curve: each searched move's score from South's side, in
 * seeds, within +-20 (a win seen is drawn at the edge). */
"var CW=480,CH=120,SC=2000;\n"
"function sy(v){v=Math.max(-SC,Math.min(SC,v));return (CH/2-v/SC*(CH/2-4)).toFixed(1);}\n"
/* The SVG's children from markup: the page's parser puts them in the SVG
 * namespace (the page names no URL). */
"function curve(){var sv=document.getElementById('vcurve'),R=G[10],n=G[4].length,pts=[],k;\n"
" if(!R||!n){sv.innerHTML='';sv.style.display='none';return;}sv.style.display='block';\n"
" for(k=0;k<n;k++)if(R[k][1]!==null)pts.push(((k+1)/n*CW).toFixed(1)+','+sy(R[k][1]));\n"
" sv.innerHTML='<line x1=\"0\" x2=\"'+CW+'\" y1=\"'+CH/2+'\" y2=\"'+CH/2+'\"></line>'+"
"'<polyline points=\"'+pts.join(' ')+'\"></polyline><circle id=\"vmark\" r=\"3\" cy=\"'+CH/2+'\"></circle>';\n"
" sv.setAttribute('data-points',pts.length);}\n"
"function record(k){var R=G[10];return R&&k>=1&&k<=R.length?' '+R[k-1][0]:'';}\n"
"function mark(){var c=document.getElementById('vmark');if(!c)return;var n=G[4].length,k=Math.min(ply,n);"
"c.setAttribute('cx',(k/n*CW).toFixed(1));}\n"
"function load(i){G=D.games[i];H=D.variants[G[2]].h;var b0=parse(G[3]),n=G[4].length;"
    "frames=[b0];\n"
    " for(var k=0;k<n;k++){var f=frame(G[9],k,(b0.side+k+1)%2),p=frames[k];f.last=index(G[4][k]);\n"
    "  f.taken=f.store[0]+f.store[1]-p.store[0]-p.store[1];frames.push(f);}\n"
    " if(G[6]!='playing'&&fmt(frames[frames.length-1])!=G[7]){var f2=parse(G[7]);f2.final=1;frames.push(f2);}\n"
    " bd.style.setProperty('--h',H);ply=0;curve();show();}\n"
    "function cell(cls,i,b,f){var d=document.createElement('div');d.className=cls;\n"
    " if(i<0){d.id='vs'+(-1-i);var v=document.createElement('span');v.textContent=b.store[-1-i];d.appendChild(v);\n"
    "  var w=document.createElement('small');w.textContent=i==-1?'South':'North';d.appendChild(w);return d;}\n"
    " d.id='vh'+i;d.innerHTML='';var n=document.createElement('span');n.textContent=b.pit[i];d.appendChild(n);\n"
    " var l=document.createElement('small');l.textContent=letter(i);d.appendChild(l);\n"
    " if(f.last===i)d.className+=' last';if(f.caps&&f.caps.indexOf(i)>=0)d.className+=' cap';return d;}\n"
    "function show(){var f=frames[ply],b=f,k;bd.innerHTML='';\n"
    " var ns=cell('store',-2,b,f);ns.style.gridColumn='1';bd.appendChild(ns);\n"
    " for(k=H-1;k>=0;k--){var c=cell('house',H+k,b,f);c.style.gridRow='1';bd.appendChild(c);}\n"
    " var ss=cell('store',-1,b,f);ss.style.gridColumn=String(H+2);ss.style.gridRow='1/3';bd.appendChild(ss);\n"
    " for(k=0;k<H;k++){var c2=cell('house',k,b,f);c2.style.gridRow='2';c2.style.gridColumn=String(k+2);bd.appendChild(c2);}\n"
    " bd.setAttribute('data-pos',f.final?G[7]:fmt(b));bd.setAttribute('data-ply',ply);\n"
    " var moves=G[4].length,t='Move '+Math.min(ply,moves)+' of '+moves+'. ';\n"
    " var south=D.players[G[0]],north=D.players[G[1]];\n"
    " if(ply==0)t+='Start position, '+(b.side?'North':'South')+' to move.';\n"
    " else if(f.final)t+='Seeds left on the board go to their owners by the rules.';\n"
    " else{t+=letter(f.last)+' by '+(f.last<H?south:north);\n"
    "  if(f.taken)t+=', capturing '+f.taken+' ('+f.caps.slice().reverse().map(letter).join(' ')+')';t+='.'+record(ply);}\n"
    " t+='\\nSouth '+south+': '+b.store[0]+'   North '+north+': '+b.store[1];\n"
    " if(ply==frames.length-1&&G[6]!='playing')t+='\\nGame over ('+G[6]+'): '+G[5]+'.';\n"
    " st.textContent=t;mark();\n"
    " document.getElementById('vprev').disabled=document.getElementById('vfirst').disabled=ply==0;\n"
    " document.getElementById('vnext').disabled=document.getElementById('vlast').disabled=ply==frames.length-1;}\n"
    "function go(k){ply=Math.max(0,Math.min(frames.length-1,k));show();}\n"
    "document.getElementById('vfirst').onclick=function(){go(0);};\n"
    "document.getElementById('vprev').onclick=function(){go(ply-1);};\n"
    "document.getElementById('vnext').onclick=function(){go(ply+1);};\n"
    "document.getElementById('vlast').onclick=function(){go(frames.length-1);};\n"
    "sel.onchange=function(){load(+sel.value);};\n"
    "document.addEventListener('keydown',function(e){if(e.target&&e.target.tagName=='SELECT'&&"
    "(e.key=='ArrowUp'||e.key=='ArrowDown'))return;\n"
    " var k={ArrowRight:ply+1,ArrowLeft:ply-1,Home:0,End:frames.length-1}[e.key];\n"
    " if(k!==undefined){e.preventDefault();go(k);}});\n"
    "D.games.forEach(function(g,i){var o=document.createElement('option');o.value=i;o.textContent=g[8]+': '+"
    "D.players[g[0]]+' vs '+D.players[g[1]]+', '+g[5]+' ('+g[6]+')';sel.appendChild(o);});\n"
    "if(D.games.length)load(0);\n"
    "})();\n";

/* One number (0..255) as one character of a JSON string, code point 0x3F + n
 * moved past DEL and the C1 controls (0x7F..0x9F) when it reaches them, in
 * UTF-8; json_str's escapes are not needed for any of them but '\\'. */
static void frame_num(FILE *f, int n) {
  unsigned c = 0x3Fu + (unsigned)n;
  if (c >= 0x7F) c += 0x21;
  if (c == '\\') fputs("\\\\", f);
  else if (c < 0x80) fputc((int)c, f);
  else {
    fputc((int)(0xC0 | (c >> 6)), f);
    fputc((int)(0x80 | (c & 0x3F)), f);
  }
}

/* The positions after each move of gm, as core/ plays them: per move the
 * 2H houses, the two stores and the mask of the opponent's houses it
 * captured (bit i = the mover's opponent's i-th house), one
 * character each (frame_num), in one JSON string. */
static void frame_write(FILE *f, const game *gm) {
  board b = gm->start;
  const variant *v = &gm->v;
  fputc('"', f);
  for (int k = 0; k < gm->plies; k++) {
    uint32_t caps;
    int lo = (1 - b.side) * v->houses; /* a capture takes from the opponent's row */
    board_play_captured(&b, v, gm->moves[k], &caps);
    for (int i = 0; i < v->pits; i++) frame_num(f, b.pit[i]);
    frame_num(f, b.store[0]);
    frame_num(f, b.store[1]);
    frame_num(f, (int)(caps >> lo));
  }
  fputc('"', f);
}

/* The game's move records as a JSON value: null when it has none, else per
 * move [its comment as PGN writes it, the score from South's side in
 * centiseeds (null when the move was not searched)]. 0, or -1 with err. */
static int records_write(FILE *f, const store_game *g, const game *gm, char *err, size_t errlen) {
  move_record *m;
  int rc = store_game_records(g, &m, err, errlen);
  if (rc < 0) return -1;
  if (!rc) {
    fputs(",null", f);
    return 0;
  }
  fputs(",[", f);
  for (int k = 0; k < g->plies; k++) {
    char c[80];
    move_record_comment(&m[k], c, sizeof c);
    fputs(k ? ",[" : "[", f);
    json_str(f, c);
    int south = (gm->start.side + k) % 2 == BOARD_SOUTH; /* the mover of move k */
    if (m[k].depth > 0) fprintf(f, ",%d]", south ? m[k].score : -m[k].score);
    else fputs(",null]", f);
  }
  fputc(']', f);
  free(m);
  return 0;
}

typedef struct writer {
  FILE *f;
  const store_run *run;
  long long n;
  char err[ERROR_MAX];
} writer;

static int write_game(void *ctx, const store_game *g) {
  writer *w = ctx;
  const store_run *r = w->run;
  if (w->n >= VIEWER_MAX_GAMES) return 1;
  variant v;
  game gm;
  if (store_replay_game(r, g, &v, &gm, w->err, sizeof w->err)) return 1;
  /* The position shown at the end: the rules' transfer when they ended the
   * game, else (a forfeit) the position as it was. */
  char fin[NOTATION_POSITION_MAX], a[16], b[16], res[80], label[48];
  board shown;
  game_shown_position(&gm, &shown);
  notation_format_position(&shown, &v, gm.end != BOARD_END_NONE ? gm.score2 : NULL, fin,
                           sizeof fin);
  notation_format_half(g->score2[0], a, sizeof a);
  notation_format_half(g->score2[1], b, sizeof b);
  snprintf(res, sizeof res, "%s-%s, %s", a, b,
           g->winner == 0 ? "South wins" : g->winner == 1 ? "North wins" : "a draw");
  snprintf(label, sizeof label, "%d.%d.%d", g->round + 1, g->series_no + 1, g->game_no + 1);
  fprintf(w->f, "%s[%d,%d,%d,", w->n ? ",\n" : "", g->south_idx, g->north_idx, g->variant_idx);
  json_str(w->f, g->opening);
  fputc(',', w->f);
  json_str(w->f, g->moves);
  fputc(',', w->f);
  json_str(w->f, res);
  fputc(',', w->f);
  json_str(w->f, outcome_end_name(g->end));
  fputc(',', w->f);
  json_str(w->f, fin);
  fputc(',', w->f);
  json_str(w->f, label);
  fputc(',', w->f);
  frame_write(w->f, &gm);
  if (records_write(w->f, g, &gm, w->err, sizeof w->err)) {
    game_free(&gm);
    return 1;
  }
  fputc(']', w->f);
  game_free(&gm);
  w->n++;
  return 0;
}

int viewer_write(FILE *h, store *db, const store_run *r, long long *shown, char *err,
                 size_t errlen) {
  *shown = 0;
  fprintf(h, "<section id=\"games\">\n<h2>Games</h2>\n<style>%s</style>\n", style);
  fputs("<div class=\"vcontrols\"><label for=\"vgame\">Game</label> <select id=\"vgame\"></select>"
        "</div>\n<div class=\"vcontrols\"><button id=\"vfirst\" title=\"first (Home)\">|&#x25C0;"
        "</button><button id=\"vprev\" title=\"back (left arrow)\">&#x25C0;</button>"
        "<button id=\"vnext\" title=\"forward (right arrow)\">&#x25B6;</button>"
        "<button id=\"vlast\" title=\"last (End)\">&#x25B6;|</button></div>\n"
        "<div id=\"vboard\" role=\"img\" aria-label=\"the board\"></div>\n"
        "<pre id=\"vstatus\"></pre>\n"
        "<svg id=\"vcurve\" width=\"480\" height=\"120\" role=\"img\" aria-label=\"the score "
        "curve: each searched move's score from South's side\"></svg>\n"
        "<script type=\"application/json\" id=\"viewer-data\">{\"players\":[",
        h);
  for (int i = 0; i < r->nplayers; i++) {
    if (i) fputc(',', h);
    json_str(h, r->player_name[i]);
  }
  fputs("],\"variants\":[", h);
  for (int i = 0; i < r->nvariants; i++) {
    variant v;
    char verr[ERROR_MAX];
    if (variant_parse(r->variant[i], &v, verr, sizeof verr)) {
      error_set(err, errlen, "variant %s: %s", r->variant[i], verr);
      return -1;
    }
    fprintf(h, "%s{\"name\":", i ? "," : "");
    json_str(h, r->variant[i]);
    fprintf(h, ",\"h\":%d}", v.houses);
  }
  fputs("],\"games\":[\n", h);
  writer w = {h, r, 0, ""};
  int rc = store_games_foreach(db, r->id, write_game, &w, err, errlen);
  if (w.err[0]) {
    error_set(err, errlen, "the game viewer: %s", w.err);
    return -1;
  }
  if (rc) return -1;
  fputs("]}</script>\n", h);
  fprintf(h, "<p class=\"sub\">%lld game%s%s. Pick one, then step with the buttons or the arrow "
             "keys (Home, End). The last move's house is outlined, the houses it captured are "
             "red.</p>\n",
          w.n, w.n == 1 ? "" : "s",
          w.n == VIEWER_MAX_GAMES ? " (the first ones of the run; the OGN file has every game)"
                                  : "");
  fprintf(h, "<script>%s</script>\n</section>\n", script);
  *shown = w.n;
  return 0;
}
