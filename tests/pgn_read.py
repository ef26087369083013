#!/usr/bin/env python3
"""pgn_read.py: an independent PGN reader for the tests: checks `oware export --format pgn` record by record.

Usage: pgn_read.py FILE.pgn GAMES.csv
Reads every record of FILE.pgn with its own tokenizer (not the exporter's code),
checks the Seven Tag Roster in order, the results, the move numbers and the side
to move of every letter, then compares each record with the same game in the CSV
export (south, north, winner, moves, plies, end, scores). It also reads the file
the way Ordo does (a line scan for [White "...], [Black "...], [Result "...]) and
the way BayesElo does (tags, then tokens up to a game termination marker), and
checks that both find every game with the same result. Exit 0 when all holds.
"""
import csv
import re
import sys

STR = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
TERM = {"1-0", "0-1", "1/2-1/2", "*"}


def fail(msg):
    print("pgn_read: " + msg)
    sys.exit(1)


def records(text):
    """Yields (tags as a list of pairs, movetext tokens) per record."""
    pos, n = 0, len(text)
    tag_re = re.compile(r'\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\]')
    while True:
        while pos < n and text[pos].isspace():
            pos += 1
        if pos >= n:
            return
        tags = []
        while pos < n and text[pos] == "[":
            m = tag_re.match(text, pos)
            if not m:
                fail("bad tag at offset %d: %r" % (pos, text[pos:pos + 40]))
            tags.append((m.group(1), re.sub(r'\\(.)', r'\1', m.group(2))))
            pos = m.end()
            while pos < n and text[pos].isspace():
                pos += 1
        toks = []
        while pos < n:
            while pos < n and text[pos].isspace():
                pos += 1
            if pos >= n or text[pos] == "[":
                break
            if text[pos] == "{":
                end = text.index("}", pos)
                pos = end + 1
                continue
            m = re.compile(r"\S+").match(text, pos)
            toks.append(m.group(0))
            pos = m.end()
            if m.group(0) in TERM:
                break
        yield tags, toks


def ordo_scan(text):
    """Ordo's reader: a game is complete once White, Black and Result were seen."""
    games, cur = [], {}
    for line in text.splitlines():
        for key in ("White", "Black", "Result"):
            i = line.find('[%s "' % key)
            if i >= 0:
                j = line.find('"]', i)
                if j < 0:
                    fail("Ordo would stop: unterminated tag: " + line)
                # Ordo keeps a name's backslashes; it is the same name in every game.
                cur[key] = re.sub(r'\\(.)', r'\1', line[i + len(key) + 3:j])
        if len(cur) == 3:
            if cur["Result"] not in TERM:
                fail("Ordo would stop: Result " + cur["Result"])
            games.append((cur["White"], cur["Black"], cur["Result"]))
            cur = {}
    return games


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    rows = list(csv.DictReader(open(sys.argv[2], encoding="utf-8")))
    recs = list(records(text))
    if len(recs) != len(rows):
        fail("%d records, %d games in the CSV" % (len(recs), len(rows)))
    bayes = []
    for k, ((tags, toks), row) in enumerate(zip(recs, rows), 1):
        names = [t for t, _ in tags]
        if names[:7] != STR:
            fail("record %d: the first tags are %s, not the Seven Tag Roster" % (k, names[:7]))
        t = dict(tags)
        for need in ("Variant", "StartPosition", "Termination", "Score", "PlyCount"):
            if need not in t:
                fail("record %d: no %s tag" % (k, need))
        if not toks or toks[-1] != t["Result"]:
            fail("record %d: the movetext does not end with the result %s" % (k, t["Result"]))
        bayes.append((t["White"], t["Black"], toks[-1]))
        side = 0 if t["StartPosition"].endswith("-S") else 1
        moves, number = [], 1
        for tok in toks[:-1]:
            m = re.fullmatch(r"(\d+)(\.|\.\.\.)", tok)
            if m:
                want = "." if side == 0 else "..."
                if int(m.group(1)) != number or m.group(2) != want:
                    fail("record %d: move number %s where %d%s was due" % (k, tok, number, want))
                continue
            if len(tok) != 1 or not tok.isalpha():
                fail("record %d: token %r is not a house letter" % (k, tok))
            if (side == 0) != tok.isupper():
                fail("record %d: move %d (%s) is not the side to move's" % (k, len(moves) + 1, tok))
            moves.append(tok)
            if side == 1:
                number += 1
            side ^= 1
        want_res = {"south": "1-0", "north": "0-1", "draw": "1/2-1/2"}[row["winner"]]
        checks = [
            ("White", t["White"], row["south"]), ("Black", t["Black"], row["north"]),
            ("Result", t["Result"], want_res), ("moves", "".join(moves), row["moves"]),
            ("PlyCount", t["PlyCount"], row["plies"]), ("Termination", t["Termination"], row["end"]),
            ("Score", t["Score"], row["score_south"] + "-" + row["score_north"]),
            ("Variant", t["Variant"], row["variant"]), ("StartPosition", t["StartPosition"], row["opening"]),
            ("Round", t["Round"].split(".", 1)[1], "%d.%d" % (int(row["series"]) + 1, int(row["game"]) + 1)),
        ]
        for what, got, want in checks:
            if got != want:
                fail("record %d: %s is %r, the database has %r" % (k, what, got, want))
    if ordo_scan(text) != bayes:
        fail("Ordo's line scan and the token reader disagree")
    print("pgn_read: %d records read, all agree with the database" % len(recs))


main()
