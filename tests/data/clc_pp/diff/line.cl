a __LINE__ __FILE__
#line 100
b __LINE__ __FILE__
#line 200 "renamed.cl"
c __LINE__ __FILE__
#define L __LINE__
#define FL(x) x __LINE__
d L FL(e)
FL(
f
)
#define NUM 300
#line NUM
g __LINE__
