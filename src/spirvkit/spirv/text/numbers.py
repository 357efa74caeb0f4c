"""Literal numbers in SPIR-V assembly, spelled and read exactly as SPIRV-Tools does.

Printing: integers in decimal (signed per the type); 32- and 64-bit floats that are zero or
normal with ``max_digits10`` significant digits (C's ``%.9g`` / ``%.17g``), anything else (and
every 16-bit float) as a hex float ``0x1.8p+3``.

Reading: integers in decimal, ``0x`` hex or leading-``0`` octal with an optional sign, range
checked for the declared width (hex may spell the sign bit of a signed type); floats in decimal or
hex-float form, with SPIRV-Tools' special rules (16-bit decimals round toward zero, a hex float
with exponent beyond the range is infinity, ``0x1.8p+128`` is a NaN).
"""

from __future__ import annotations

import re
import struct

# fractions.Fraction (exact values for reading floats) is imported where it is used: with decimal
# and numbers it would cost every ``spirvkit dis`` about as much as disassembling a small module.
TYPE_CHECKING = False
if TYPE_CHECKING:     # (the annotations name it)
    from fractions import Fraction

# (exponent bits, fraction bits) per IEEE width
_FORMATS = {16: (5, 10), 32: (8, 23), 64: (11, 52)}

# Float forms with a non-IEEE encoding (OpTypeFloat's FPEncoding operand): form -> (width,
# exponent bits, fraction bits). SPIRV-Tools prints them, like 16-bit floats, as hex floats.
ENCODED_FLOAT_FORMS = {"b16": (16, 8, 7), "e8": (8, 4, 3), "m8": (8, 5, 2)}


class NumberError(ValueError):
    """A literal that does not parse or does not fit its type."""


# -- printing ----------------------------------------------------------------------------------


def hex_float(bits: int, width: int, layout: tuple[int, int] | None = None) -> str:
    """The hex-float spelling SPIRV-Tools gives a float of ``width`` bits (IEEE, or the given
    (exponent bits, fraction bits) layout)."""
    exp_bits, frac_bits = layout or _FORMATS[width]
    bias = (1 << (exp_bits - 1)) - 1
    nibbles = (frac_bits + 3) // 4
    overflow = nibbles * 4 - frac_bits
    sign = "-" if bits >> (width - 1) & 1 else ""
    exponent = (bits >> frac_bits) & ((1 << exp_bits) - 1)
    fraction = (bits & ((1 << frac_bits) - 1)) << overflow
    is_zero = exponent == 0 and fraction == 0
    is_denorm = exponent == 0 and not is_zero
    int_exponent = 0 if is_zero else exponent - bias
    if is_denorm:
        top = 1 << (nibbles * 4 - 1)
        while not fraction & top:
            fraction <<= 1
            int_exponent -= 1
        fraction = (fraction << 1) & ((1 << (nibbles * 4)) - 1)
    while nibbles > 0 and (fraction & 0xF) == 0:
        fraction >>= 4
        nibbles -= 1
    text = f"{sign}0x{'0' if is_zero else '1'}"
    if nibbles:
        text += "." + format(fraction, "x").rjust(nibbles, "0")
    return f"{text}p{'+' if int_exponent >= 0 else ''}{int_exponent}"


def format_float(bits: int, width: int) -> str:
    if width == 16:
        return hex_float(bits, 16)
    exp_bits, frac_bits = _FORMATS[width]
    exponent = (bits >> frac_bits) & ((1 << exp_bits) - 1)
    fraction = bits & ((1 << frac_bits) - 1)
    if exponent == (1 << exp_bits) - 1 or (exponent == 0 and fraction):
        return hex_float(bits, width)  # inf, NaN, subnormal
    if width == 32:
        return "%.9g" % struct.unpack("<f", struct.pack("<I", bits))[0]
    return "%.17g" % struct.unpack("<d", struct.pack("<Q", bits))[0]


def format_number(bits: int, form: str) -> str:
    """Spell a literal of form 'u32', 'i16', 'f32' ... from its raw bits (low word first)."""
    encoded = ENCODED_FLOAT_FORMS.get(form)
    if encoded is not None:
        width, exp_bits, frac_bits = encoded
        return hex_float(bits & ((1 << width) - 1), width, (exp_bits, frac_bits))
    kind = form[0]
    width = int(form[1:])
    if kind == "f":
        if width in _FORMATS:
            return format_float(bits & ((1 << width) - 1), width)
        return str(bits)
    if kind == "i":
        size = 32 if width <= 32 else 64
        if bits >> (size - 1) & 1:
            return str(bits - (1 << size))
    return str(bits)


# -- reading -----------------------------------------------------------------------------------

_INT_RE = re.compile(r"[+-]?(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)\Z")


# The most digits (after leading zeros) a literal of at most 64 bits can have, per base.
_MAX_DIGITS = {2: 64, 8: 22, 10: 20, 16: 16}


def bounded_int(digits: str, base: int) -> int:
    """``int(digits, base)``, or 2**64 (past every 64-bit value) when there are more digits,
    leading zeros aside, than a 64-bit value can have: decided before converting, so thousands
    of digits never reach Python's int-from-string limit."""
    digits = digits.lstrip("0") or "0"
    if len(digits) > _MAX_DIGITS[base]:
        return 1 << 64
    return int(digits, base)


def _abbreviated(text: str, limit: int = 40) -> str:
    """A literal as quoted in a message: a very long one is cut, as the caret locates it anyway."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def parse_c_integer(text: str) -> int:
    """``istream >> setbase(0)``: decimal, 0x hex or 0 octal, with optional sign. Literals wider
    than 64 bits are refused from their digit count, before any conversion (spirv-as reads them
    into a 64-bit integer too)."""
    if not _INT_RE.match(text):
        raise NumberError(f"invalid integer literal: {_abbreviated(text)}")
    sign = -1 if text[0] == "-" else 1
    body = text.lstrip("+-")
    if body[:2] in ("0x", "0X"):
        base, digits = 16, body[2:]
    elif len(body) > 1 and body[0] == "0":
        base, digits = 8, body[1:]
    else:
        base, digits = 10, body
    value = bounded_int(digits, base)
    if value >> 64:
        raise NumberError(f"integer {_abbreviated(text)} does not fit in 64 bits")
    return sign * value


def parse_integer(text: str, width: int, signed: bool) -> int:
    """Parse an integer literal for an integer type; returns the bits (two's complement, ``width``
    rounded up to 32 or 64)."""
    if width > 64:
        raise NumberError(f"unsupported {width}-bit integer literal")
    negative = text.startswith("-")
    if negative and not signed:
        raise NumberError(f"cannot put a negative number in an unsigned literal: {text}")
    value = parse_c_integer(text)
    if negative and value < -(1 << 63) or value >= (1 << 64):
        raise NumberError(f"integer {text} does not fit in 64 bits")
    is_hex = text[:2] in ("0x", "0X")
    magnitude = (1 << width) - 1 if width < 64 else (1 << 64) - 1
    overflow = ((1 << 64) - 1) & ~magnitude
    sign_mask = 0
    if value < 0 or signed:
        magnitude >>= 1
        sign_mask = magnitude + 1
    if value < 0:
        bits = value & ((1 << 64) - 1)
        ok = (bits & overflow) == overflow and (bits & sign_mask) == sign_mask
    elif is_hex:
        bits = value
        ok = (bits & overflow) == 0
        if ok and bits & sign_mask:
            bits |= overflow  # a hex spelling of a negative number: sign-extend
    else:
        bits = value
        ok = (bits & magnitude) == bits
    if not ok:
        kind = "signed" if signed else "unsigned"
        raise NumberError(f"integer {text} does not fit in a {width}-bit {kind} integer")
    return bits & (0xFFFFFFFF if width <= 32 else (1 << 64) - 1)


_DEC_FLOAT_RE = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\Z")
_HEX_FLOAT_RE = re.compile(r"(-?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?p([+-]?[0-9]+)\Z")


def _round_fraction(value: Fraction, width: int, toward_zero: bool = False, layout=None) -> int:
    """Round an exact rational to IEEE bits (nearest-even, or toward zero); inf on overflow."""
    from fractions import Fraction

    exp_bits, frac_bits = layout or _FORMATS[width]
    bias = (1 << (exp_bits - 1)) - 1
    sign = 0
    if value < 0:
        sign, value = 1, -value
    if value == 0:
        return sign << (width - 1)
    # exponent e such that 2^e <= value < 2^(e+1)
    e = value.numerator.bit_length() - value.denominator.bit_length()
    if Fraction(2) ** e > value:
        e -= 1
    e = max(e, 1 - bias)  # subnormals share the minimum exponent
    scaled = value / Fraction(2) ** (e - frac_bits)
    mantissa = scaled.numerator // scaled.denominator
    rest = scaled - mantissa
    if not toward_zero and (rest > Fraction(1, 2) or (rest == Fraction(1, 2) and mantissa & 1)):
        mantissa += 1
    if mantissa >> (frac_bits + 1):
        mantissa >>= 1
        e += 1
    if mantissa >> frac_bits == 0:  # subnormal
        biased = 0
    else:
        biased = e + bias
        mantissa &= (1 << frac_bits) - 1
    if biased >= (1 << exp_bits) - 1:  # overflow: infinity, whatever the rounding
        return (sign << (width - 1)) | (((1 << exp_bits) - 1) << frac_bits)
    return (sign << (width - 1)) | (biased << frac_bits) | mantissa


# Past these magnitudes every float form here overflows or underflows, so a value is never built
# from a huge power (written exponents are clamped to a bound beyond them first).
_DECIMAL_MAGNITUDE_BOUND = 400  # decimal magnitudes: doubles span about 10^-324 .. 10^308
# Correct rounding to a double never needs more than 767 significant decimal digits; past them
# only whether the rest is nonzero matters (a sticky digit stands for it).
_MAX_SIGNIFICANT_DIGITS = 800


def bounded_exponent(text: str, literal: str) -> int:
    """A written exponent ('+12', '-3', '' for none), clamped to a bound that its ``literal``'s
    digits cannot make up for (so the verdict stays the same), without converting thousands of
    digits."""
    bound = 4 * len(literal) + 4096  # beyond 2^+-1100 and 10^+-400 by more than the digits
    digits = text.lstrip("+-").lstrip("0")
    if not digits:
        return 0
    value = min(int(digits), bound) if len(digits) <= 18 else bound
    return -value if text.startswith("-") else value


def decimal_value(body: str) -> Fraction | None:
    """The exact value of an unsigned decimal float literal, Fraction(0) when it is too small
    for any float form, None when too large; decided from the exponent before any big power is
    built."""
    from fractions import Fraction

    mantissa, _, exp_text = body.lower().partition("e")
    int_part, _, frac_part = mantissa.partition(".")
    digits = (int_part + frac_part).lstrip("0")
    if not digits:
        return Fraction(0)
    # value = 0.<digits> * 10^magnitude
    magnitude = len(int_part) - (len(int_part) + len(frac_part) - len(digits)) + bounded_exponent(exp_text, body)
    if magnitude > _DECIMAL_MAGNITUDE_BOUND:
        return None
    if magnitude < -_DECIMAL_MAGNITUDE_BOUND:
        return Fraction(0)
    digits = digits.rstrip("0")
    if len(digits) > _MAX_SIGNIFICANT_DIGITS:
        digits = digits[:_MAX_SIGNIFICANT_DIGITS] + "1"  # the cut tail is nonzero: sticky digit
    return Fraction(int(digits)) * Fraction(10) ** (magnitude - len(digits))


def _parse_hex_float(match: re.Match, width: int, layout: tuple[int, int] | None = None) -> int:
    """SPIRV-Tools' HexFloat reader: the digits are copied (truncated) into the fraction, the
    exponent saturates to infinity, and an all-ones exponent with a fraction is a NaN."""
    exp_bits, frac_bits = layout or _FORMATS[width]
    bias = (1 << (exp_bits - 1)) - 1
    negative, int_digits, frac_digits, exp_text = match.groups()
    int_digits = int_digits.lstrip("0")
    frac_digits = frac_digits or ""
    written_exponent = bounded_exponent(exp_text, match.group(0))
    # Mantissa bits after the leading one, as a bit string, and the exponent.
    if int_digits:
        bits = bin(int(int_digits, 16))[2:]
        exponent = bias + len(bits) - 1
        tail = bits[1:] + "".join(format(int(c, 16), "04b") for c in frac_digits)
    else:
        frac_bits_text = "".join(format(int(c, 16), "04b") for c in frac_digits)
        lead = frac_bits_text.find("1")
        if lead < 0:
            return (1 if negative else 0) << (width - 1)
        exponent = bias - lead - 1
        tail = frac_bits_text[lead + 1 :]
    exponent += written_exponent
    fraction = int((tail + "0" * frac_bits)[:frac_bits], 2)
    max_exponent = (1 << exp_bits) - 1
    if exponent <= 0:
        # shift the implicit one into the fraction, then right until the exponent is 0
        full = (1 << frac_bits) | fraction
        shift = 1 - exponent
        fraction = full >> shift if shift <= frac_bits + 1 else 0
        exponent = 0
    if exponent > max_exponent:
        exponent, fraction = max_exponent, 0
    return ((1 if negative else 0) << (width - 1)) | (exponent << frac_bits) | fraction


def parse_float(text: str, width: int, layout: tuple[int, int] | None = None) -> int:
    """Parse a float literal for a float type of ``width`` bits (IEEE, or the given (exponent
    bits, fraction bits) layout of an encoded type); returns its bits."""
    if layout is None and width not in _FORMATS:
        raise NumberError(f"unsupported {width}-bit float literal")
    m = _HEX_FLOAT_RE.match(text)
    if m:  # '0xp1', with no digits at all, reads as zero, as in spirv-as
        return _parse_hex_float(m, width, layout)
    if text.startswith(("-+", "--", "+-", "++")) or not _DEC_FLOAT_RE.match(text):
        raise NumberError(f"invalid {width}-bit float literal: {_abbreviated(text)}")
    sign = 1 if text.startswith("-") else 0
    value = decimal_value(text.lstrip("+-"))
    if value is None:
        raise NumberError(f"{width}-bit float literal out of range: {_abbreviated(text)}")
    if width == 16 or layout is not None:
        # SPIRV-Tools reads a 32-bit float, then narrows it toward zero.
        bits32 = _round_fraction(value, 32)
        if bits32 >> 23 == 0xFF:
            raise NumberError(f"{width}-bit float literal out of range: {_abbreviated(text)}")
        exp_bits, frac_bits = layout or _FORMATS[width]
        bits = _round_fraction(_fraction_of(bits32, 32), width, True, (exp_bits, frac_bits))
        if layout is None and bits >> frac_bits == (1 << exp_bits) - 1:
            raise NumberError(f"{width}-bit float literal out of range: {_abbreviated(text)}")
        return bits | sign << (width - 1)
    bits = _round_fraction(value, width)
    exp_bits, frac_bits = _FORMATS[width]
    if bits >> frac_bits == (1 << exp_bits) - 1:
        raise NumberError(f"{width}-bit float literal out of range: {_abbreviated(text)}")
    return bits | sign << (width - 1)


def _fraction_of(bits: int, width: int) -> Fraction:
    from fractions import Fraction

    exp_bits, frac_bits = _FORMATS[width]
    bias = (1 << (exp_bits - 1)) - 1
    sign = -1 if bits >> (width - 1) & 1 else 1
    exponent = (bits >> frac_bits) & ((1 << exp_bits) - 1)
    fraction = bits & ((1 << frac_bits) - 1)
    if exponent == 0:
        return sign * Fraction(fraction) * Fraction(2) ** (1 - bias - frac_bits)
    return sign * Fraction((1 << frac_bits) | fraction) * Fraction(2) ** (exponent - bias - frac_bits)


def parse_number(text: str, form: str) -> list[int]:
    """Parse a literal for number form 'u32', 'i64', 'f16' ...; returns its words, low first."""
    encoded = ENCODED_FLOAT_FORMS.get(form)
    if encoded is not None:
        width, exp_bits, frac_bits = encoded
        return [parse_float(text, width, (exp_bits, frac_bits))]
    kind = form[0]
    width = int(form[1:])
    if kind == "f":
        bits = parse_float(text, width)
    else:
        bits = parse_integer(text, width, kind == "i")
    if width > 32:
        return [bits & 0xFFFFFFFF, bits >> 32]
    return [bits & 0xFFFFFFFF]


def infer_form(text: str) -> str:
    """The form of a literal whose type is not known (after ``!<integer>``): a float if it has a
    '.', else a signed integer if it starts with '-', else unsigned; always 32 bits."""
    if "." in text:
        return "f32"
    return "i32" if text.startswith("-") else "u32"
