#define F(x) [x]
#define G(x, y) [x|y]
#define H() []
#define EMPTY
F() F( ) F(()) F((a, b)) F([a]) F({a}[0])
G(,) G(a,) G(,b) G((,),(,)) G( a b , c d )
H() H( )
F(
  line1
  line2
) after_multiline
G(F(1), F(2)) F(G(1, 2))
+EMPTY+ -EMPTY- a EMPTY b F(+)F(+) EMPTY x
#define PLUS +
+PLUS -PLUS- PLUS+ PLUS+PLUS
x EMPTY+=EMPTY 1
