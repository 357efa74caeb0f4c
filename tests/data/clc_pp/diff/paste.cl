#define cat(a, b) a ## b
#define xcat(a, b) cat(a, b)
#define cat3(a, b, c) a ## b ## c
cat(foo, bar) cat(foo, 1) cat(1, foo) cat(1, 2) cat(1., 5e) cat(1e, -) 
cat(-, >) cat(<, <=) cat(>>, =) cat(&, &) cat(#, #) cat(%:, %:) cat(<, :) cat(., 1)
cat(+, ) cat(, +) cat(,) cat(L, 'a') cat(L, "s") cat(u, 8)
cat3(a, , c) cat3(, , ) cat3(x, y, z) cat3(1, ., 5)
xcat(xcat(a, b), c)
#define OBJ p ## q ## r
OBJ
#define SELF(x) x ## SELF
SELF(a) SELF()
#define CALL(f, x) f ## _impl(x)
CALL(vec, 3) CALL(, 4)
#define GLUE_SPACE(a, b) a  ##  b
GLUE_SPACE(  left  ,  right  )
#define MKFN(type, n) type ## n make_ ## type ## n()
MKFN(float, 4); MKFN(uchar, 16);
