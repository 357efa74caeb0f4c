#define V(...) [__VA_ARGS__]
#define V1(a, ...) <a|__VA_ARGS__>
#define GNU(fmt, args...) printf(fmt, args)
#define COMMA(fmt, ...) printf(fmt, ## __VA_ARGS__)
#define COUNT_(_1, _2, _3, _4, N, ...) N
#define COUNT(...) COUNT_(__VA_ARGS__, 4, 3, 2, 1)
#define STR(...) #__VA_ARGS__
V() V(a) V(a, b) V((a, b), c) V( a , b , c )
V1(x) V1(x,) V1(x, y) V1(x, y, z) V1((1, 2), 3)
GNU("%d", 1) GNU("%d %d", 1, 2)
COMMA("plain") COMMA("one %d", 1) COMMA("two %d %d", 1, 2)
COUNT(a) COUNT(a, b) COUNT(a, b, c) COUNT(a, b, c, d)
STR() STR(a) STR(a,b) STR( a , b ) STR(a,  b,c)
#define APPLY(m, ...) m(__VA_ARGS__)
APPLY(V, 1, 2) APPLY(V1, 1, 2, 3) APPLY(STR, x, y)
