#define str(x) #x
#define xstr(x) str(x)
#define EMPTY
#define ID(x) x
str( a  +  b );
str(   leading and trailing   );
str(a/* comment */b);
str(a /* comment */ b);
str("string with \"quotes\" and \\ backslash\n");
str('"'); str('\''); str('\\');
str(L"wide" L'w');
str(@ $ ` \ );
str(
  split
  across   lines
);
str(f(x, y));
str(EMPTY); xstr(EMPTY); xstr(a EMPTY b); xstr(ID(  x  ));
str(( a , b ));
str(1.0f 0x1p-3f 1e+10 .5h 07u);
str(<: :> <% %> %: %:%:);
str(a##b); str(#);
xstr(__LINE__) xstr(str(x));
