/* minimax.h: the minimax player type (its parameters are set through player_set_param). */
#ifndef OWARE_MINIMAX_H
#define OWARE_MINIMAX_H

#include "players/eval.h"
#include "players/player.h"

extern const player_type player_minimax;

/* A spec stored when minimax's evaluation was the linear one by default
 * (before eval=auto: runs of store schemas up to 8), as it must be written
 * now to play the same: a minimax spec without eval= gets eval=linear
 * (after its options, or after ':' when it has none); any other spec is
 * unchanged. Returns 1 with *out (malloc'ed) the new spec, 0 (*out NULL)
 * when unchanged, -1 when out of memory. */
int minimax_spec_linear_by_default(const char *spec, char **out);

/* A spec stored when cap_exact was off by default (store schemas up to
 * 11), as it must be written now to play the same: a minimax spec without
 * cap_exact= gets cap_exact=0; the same contract as above. */
int minimax_spec_cap_off_by_default(const char *spec, char **out);

/* A spec stored before reverse futility pruning (rfp=150 by default from
 * store schema 16 on), as it must be written now to play the same: a
 * minimax spec without rfp= gets rfp=0; the same contract as above. */
int minimax_spec_rfp_off_by_default(const char *spec, char **out);

/* A spec stored before aspiration windows (asp=50 by default from store
 * schema 17 on), as it must be written now to play the same: a minimax
 * spec without asp= gets asp=0; the same contract as above. */
int minimax_spec_asp_off_by_default(const char *spec, char **out);

/* A spec stored before internal iterative reduction (iir=1 by default from
 * store schema 18 on), as it must be written now to play the same: a
 * minimax spec without iir= gets iir=0; the same contract as above. */
int minimax_spec_iir_off_by_default(const char *spec, char **out);

/* A spec stored when eval=auto took the network "net" (store schemas 9 to
 * 12; net2 since), as it must be written now to play the same: a minimax
 * spec whose evaluation was auto's network (no eval=, or eval=auto, and
 * neither weights= nor ending=) says eval=net; the same contract as
 * above. */
int minimax_spec_net1_by_default(const char *spec, char **out);

/* A spec stored when eval=auto took the network "net2" (store schema 13;
 * net3 since), as it must be written now to play the same: eval=net2 where
 * auto gave a network, by the rule above. */
int minimax_spec_net2_by_default(const char *spec, char **out);

#endif
