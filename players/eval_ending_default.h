/* eval_ending_default.h: the rows of the default endings table (players/eval_ending.c includes them): lo hi tempo, then seeds targets empty kroo kroo_seeds mobility capture threat right. */
{1, 4, -29, 52, 314, 305, 0, 0, 33, 95, 80, -94},
{5, 8, -54, 92, 220, 217, 0, 0, 179, 46, 78, -118},
{9, 12, -40, 7, 8, -22, 0, 0, 150, 10, 62, -76},
{13, 16, -13, 7, 20, 52, -547, 61, 78, 18, 33, 3},
{17, 20, -8, 5, 3, -31, -285, 32, 5, 28, 2, 27},
