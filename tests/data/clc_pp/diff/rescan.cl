#define foo foo
#define AA BB
#define BB AA
#define f(x) g(x)
#define g(x) f(x)
#define h(x) x h
#define ID(x) x
#define LPAREN (
#define RPAREN )
#define F(x, y) x + y
#define ELLIP_FUNC(...) __VA_ARGS__
#define NIL(x) x
#define G_0(arg) NIL(G_1)(arg)
#define G_1(arg) NIL(arg)
#define obj(x) obj_fn x
#define apply(f) f(0)
foo AA BB f(1) g(2) f(f(3)) h(1)(2)(3)
ID(ID(ID(nested)))
ID(foo) ID(AA)
ELLIP_FUNC(F, LPAREN, 'a', 'b', RPAREN);
G_0(42)
f
(5)
ID
(6)
apply(ID) apply(obj) apply(f)
#define str(x) #x
#define xstr(x) str(x)
#define INC(x) x + 1
xstr(INC(INC(1))) str(INC(1))
#define q(x) x
#define r q(
r 7)
#define recur(x) x recur
recur(1)(2)
#define self_arg(x) x
self_arg(self_arg)(9)
