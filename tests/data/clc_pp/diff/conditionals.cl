#define ONE 1
#define ZERO 0
#define EMPTY
#define FN(x) x
#if -1 < 0u
signed_compare_wrong
#else
unsigned_promotion_ok
#endif
#if -1 > 0u && (0u - 1) > 0 && ~0u > 0 && -1 != 0u
uintmax_ok
#endif
#if (2 || 1/0) && !(0 && 1/0) && (1 ? 2 : 1/0) == 2 && (0 ? 1/0 : 3) == 3
short_circuit_ok
#endif
#if defined ONE && defined(ZERO) && !defined UNDEFINED && defined ( FN )
defined_ok
#endif
#if UNDEFINED_IDENT == 0 && !UNDEFINED_IDENT
undefined_is_zero
#endif
#if 'a' == 97 && '\377' < 0 && '\n' == 10 && '\x41' == 65 && 'ab' == 24930
char_ok
#endif
#if (7 / 2) == 3 && (-7 / 2) == -3 && (-7 % 2) == -1 && (7 % -2) == 1
division_truncates
#endif
#if (-1 >> 1) == -1 && (1u << 3) == 8 && (-8 >> 2) == -2 && 0x7fffffff + 0 > 0
shifts_ok
#endif
#if FN(ONE) + FN(ZERO) == 1 && ONE EMPTY == 1
macros_in_if_ok
#endif
#if 0
#error not evaluated
#if garbage ( (
#else
#endif
skipped text with unterminated ' quote
#elif 1
elif_taken
#elif 1/0
#else
#error no
#endif
#ifdef ONE
ifdef_ok
#endif
#ifndef ONE
#else
ifndef_else_ok
#endif
#if 0
#elif 0
#else
else_ok
#endif
#if 1 ? 0 : 1
#elif (1, 1)
comma_ok
#endif
#if 010 == 8 && 0x10 == 16 && 10L == 10 && 10ul == 10 && 10LL == 10
literals_ok
#endif
#undef ONE
#ifdef ONE
undef_failed
#endif
