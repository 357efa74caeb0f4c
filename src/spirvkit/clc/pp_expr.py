"""``#if`` constant expressions (C99 §6.10.1): evaluation in intmax_t / uintmax_t (64 bits).

The input is the directive's tokens after macro expansion, with ``defined`` already replaced
by 0 or 1. Identifiers left over evaluate to 0. Arithmetic follows C99: the usual arithmetic
conversions make an operation unsigned when either operand is unsigned, signed overflow wraps
with a warning (as clang warns), and the operand that ``&&``, ``||`` or ``?:`` does not
evaluate produces no errors (so ``0 && 1/0`` is fine).
"""

from __future__ import annotations

from ..spirv.text.numbers import bounded_int
from .tokens import CHAR, IDENT, NUMBER, PUNCT, Token, char_constant_value

_BITS = 64
_MASK = (1 << _BITS) - 1
_SIGN = 1 << (_BITS - 1)
_MAX_DEPTH = 128  # nesting of parentheses and unary operators: ~4 Python frames per level


class ExprError(Exception):
    def __init__(self, message: str, token: Token | None):
        super().__init__(message)
        self.message = message
        self.token = token


def _signed(v: int) -> int:
    v &= _MASK
    return v - (1 << _BITS) if v & _SIGN else v


def parse_integer(tok: Token) -> tuple[int, bool]:
    """Value and unsignedness of an integer pp-number in ``#if``; raises ExprError."""
    text = tok.text
    lower = text.lower()
    is_hex = lower.startswith("0x")
    if "." in text or (not is_hex and "e" in lower) or (is_hex and "p" in lower):
        raise ExprError("floating point literal in preprocessor expression", tok)
    body = text[2:] if is_hex else text
    i = 0
    digits = "0123456789abcdefABCDEF" if is_hex else "0123456789"
    while i < len(body) and body[i] in digits:
        i += 1
    number, suffix = body[:i], body[i:]
    if suffix.lower() not in ("", "u", "l", "ul", "lu", "ll", "ull", "llu") or (
            "ll" in suffix.lower() and "ll" not in suffix and "LL" not in suffix):
        raise ExprError(f"invalid suffix '{suffix}' on integer constant", tok)
    if not number:
        raise ExprError("invalid integer constant" if not is_hex
                        else "hexadecimal constant requires at least one digit", tok)
    # bounded_int: 2**64 for more digits than 64 bits hold, before any conversion
    if is_hex:
        value = bounded_int(number, 16)
    elif number.startswith("0"):
        bad = next((c for c in number if c in "89"), None)
        if bad:
            raise ExprError(f"invalid digit '{bad}' in octal constant", tok)
        value = bounded_int(number, 8)
    else:
        value = bounded_int(number, 10)
    if value > _MASK:
        raise ExprError("integer literal is too large to be represented in any integer type", tok)
    unsigned = "u" in suffix.lower() or value >= _SIGN
    return value, unsigned


class Evaluator:
    """Evaluates one ``#if`` expression; ``warn(message, token)`` reports warnings."""

    def __init__(self, tokens: list[Token], warn):
        self.toks = tokens
        self.pos = 0
        self.warn = warn
        self.depth = 0

    def evaluate(self) -> bool:
        if not self.toks:
            raise ExprError("expected value in expression", None)
        value, _ = self._expr(True)
        if self.pos < len(self.toks):
            tok = self.toks[self.pos]
            raise ExprError("token is not a valid binary operator in a preprocessor subexpression", tok)
        return value != 0

    # -- helpers ---------------------------------------------------------------------------
    def _peek(self) -> Token | None:
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def _op(self) -> str | None:
        t = self._peek()
        if t is None or t.kind != PUNCT:
            return None
        return {"<:": "[", ":>": "]", "<%": "{", "%>": "}"}.get(t.text, t.text)

    def _last(self) -> Token | None:
        return self.toks[self.pos - 1] if self.pos else (self.toks[0] if self.toks else None)

    # -- grammar ---------------------------------------------------------------------------
    def _expr(self, live: bool):
        value = self._conditional(live)
        while self._op() == ",":
            self.pos += 1
            value = self._conditional(live)
        return value

    def _conditional(self, live: bool):
        cond = self._binary(0, live)
        if self._op() != "?":
            return cond
        q = self._peek()
        self.pos += 1
        self._enter(q)
        a = self._expr(live and cond[0] != 0)
        if self._op() != ":":
            raise ExprError("expected ':' in preprocessor expression", self._peek() or q)
        self.pos += 1
        b = self._conditional(live and cond[0] == 0)
        self.depth -= 1
        unsigned = a[1] or b[1]
        value = a[0] if cond[0] else b[0]
        return (value & _MASK if unsigned else value), unsigned

    _PREC = {"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7,
             "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}

    def _binary(self, min_prec: int, live: bool):
        lhs = self._unary(live)
        while True:
            op = self._op()
            prec = self._PREC.get(op or "")
            if prec is None or prec <= min_prec:
                return lhs
            op_tok = self._peek()
            self.pos += 1
            if op == "&&":
                rhs = self._binary(prec, live and lhs[0] != 0)
                lhs = (int(lhs[0] != 0 and rhs[0] != 0), False)
            elif op == "||":
                rhs = self._binary(prec, live and lhs[0] == 0)
                lhs = (int(lhs[0] != 0 or rhs[0] != 0), False)
            else:
                rhs = self._binary(prec, live)
                lhs = self._apply(op, lhs, rhs, op_tok, live)

    def _apply(self, op: str, lhs, rhs, tok: Token, live: bool):
        (a, ua), (b, ub) = lhs, rhs
        if op in ("<<", ">>"):
            # The result has the left operand's type. A count >= 64 (or negative) is
            # undefined in C; we do what clang does: "<<" gives 0 and ">>" shifts by 63,
            # both with an overflow warning.
            count = b & _MASK if ub or b >= 0 else _MASK
            too_far = count >= _BITS
            if too_far and live:
                self.warn("integer overflow in preprocessor expression", tok)
            if op == "<<":
                if too_far:
                    return 0, ua
                result = (a << count) & _MASK
                if not ua and live and _signed(result) >> count != a:
                    self.warn("integer overflow in preprocessor expression", tok)
                return (result, True) if ua else (_signed(result), False)
            count = min(count, _BITS - 1)
            return ((a & _MASK) >> count, True) if ua else (a >> count, False)
        unsigned = ua or ub
        if unsigned:
            a &= _MASK
            b &= _MASK
        if op in ("==", "!=", "<", ">", "<=", ">="):
            result = {"==": a == b, "!=": a != b, "<": a < b, ">": a > b,
                      "<=": a <= b, ">=": a >= b}[op]
            return int(result), False
        if op in ("/", "%"):
            if b == 0:
                if live:
                    raise ExprError(("division" if op == "/" else "remainder")
                                    + " by zero in preprocessor expression", tok)
                return 0, unsigned
            quotient = abs(a) // abs(b)
            if (a < 0) != (b < 0):
                quotient = -quotient  # C truncates toward zero; Python's // floors
            exact = quotient if op == "/" else a - b * quotient
        else:
            exact = {"+": a + b, "-": a - b, "*": a * b, "&": a & b, "|": a | b, "^": a ^ b}[op]
        if unsigned:
            return exact & _MASK, True
        result = _signed(exact)
        if result != exact and live:
            self.warn("integer overflow in preprocessor expression", tok)
        return result, False

    def _enter(self, tok):
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise ExprError("preprocessor expression is nested too deeply", tok)

    def _unary(self, live: bool):
        tok = self._peek()
        if tok is None:
            raise ExprError("expected value in expression", self._last())
        self.pos += 1
        if tok.kind == NUMBER:
            return parse_integer(tok)
        if tok.kind == CHAR:
            value, err = char_constant_value(tok.text)
            if err:
                raise ExprError(err, tok)
            return value, False
        if tok.kind == IDENT:
            nxt = self._peek()
            if nxt is not None and nxt.is_punct("("):
                raise ExprError(f"function-like macro '{tok.text}' is not defined", tok)
            # clang's OpenCL C has the bool keywords (LangOpts.Bool): #if reads true as 1, as C++ does
            return (1 if tok.text == "true" else 0), False
        op = self._op_of(tok)
        if op == "(":
            self._enter(tok)
            value = self._expr(live)
            if self._op() != ")":
                raise ExprError("expected ')' in preprocessor expression", self._peek() or self._last())
            self.pos += 1
            self.depth -= 1
            return value
        if op in ("+", "-", "~", "!"):
            self._enter(tok)
            v, u = self._unary(live)
            self.depth -= 1
            if op == "+":
                return v, u
            if op == "!":
                return int(v == 0), False
            if op == "~":
                return (~v & _MASK, True) if u else (~v, False)
            if u:
                return -v & _MASK, True
            if v == -_SIGN and live:
                self.warn("integer overflow in preprocessor expression", tok)
            return _signed(-v), False
        if tok.kind == PUNCT:
            raise ExprError("invalid token at start of a preprocessor expression", tok)
        raise ExprError("token is not a valid binary operator in a preprocessor subexpression"
                        if self.pos > 1 else "invalid token at start of a preprocessor expression", tok)

    @staticmethod
    def _op_of(tok: Token) -> str | None:
        if tok.kind != PUNCT:
            return None
        return {"<:": "[", ":>": "]", "<%": "{", "%>": "}"}.get(tok.text, tok.text)
