"""pytext: small, dependable text utilities in pure Python."""

from .distance import closest, common_prefix, damerau_levenshtein, hamming, levenshtein, similarity
from .linediff import Opcode, diff_lines, diff_stats, diff_texts, grouped_opcodes, opcodes, split_lines, unified_diff
from .roman import RomanError, from_roman, is_roman, parse_number, roman_range, to_roman
from .slug import slugify, split_words, to_camel, to_kebab, to_snake, transliterate, unique_slug
from .wrap import center, dedent, fill, fill_justified, fill_paragraphs, indent, justify, shorten, wrap

__version__ = "0.1.0"
