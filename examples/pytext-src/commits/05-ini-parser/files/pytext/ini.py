"""INI files: [sections] of key = value pairs, comments, quoted and continued values,
${key} and ${section:key} interpolation, a DEFAULT section every section inherits
from, typed getters and writing back.
"""

import re

DEFAULT_SECTION = "DEFAULT"
MAX_DEPTH = 10

_SECTION = re.compile(r"\[([^\]]*)\]$")
_REFERENCE = re.compile(r"\$(\$|\{([^}]*)\})")
_INLINE_COMMENT = re.compile(r"\s[;#]")
_NEEDS_QUOTES = re.compile(r"^\s|\s$|\s[;#]|^[\"']")
_TRUE = {"1", "yes", "true", "on"}
_FALSE = {"0", "no", "false", "off"}
_MISSING = object()


class IniError(ValueError):
    """Text that is not valid INI, or a lookup that cannot be answered."""

    def __init__(self, message, line=None):
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class IniFile:
    """Sections of string values. Keys are case-insensitive unless `case_sensitive`."""

    def __init__(self, case_sensitive=False):
        self.case_sensitive = case_sensitive
        self._sections = {DEFAULT_SECTION: {}}

    def _key(self, key):
        return key if self.case_sensitive else key.lower()

    def _values(self, section):
        try:
            return self._sections[section]
        except KeyError:
            raise IniError(f"no section {section!r}") from None

    def sections(self):
        """Section names in file order, DEFAULT left out."""
        return [name for name in self._sections if name != DEFAULT_SECTION]

    def has_section(self, section):
        return section != DEFAULT_SECTION and section in self._sections

    def add_section(self, section):
        if not section or section in self._sections:
            raise IniError(f"cannot add section {section!r}")
        self._sections[section] = {}

    def keys(self, section):
        """The section's own keys, then the DEFAULT keys it does not override."""
        own = self._values(section)
        return list(own) + [key for key in self._sections[DEFAULT_SECTION] if key not in own]

    def has_key(self, section, key):
        return section in self._sections and self._raw(section, key) is not _MISSING

    def set(self, section, key, value):
        self._values(section)[self._key(key)] = str(value)

    def remove(self, section, key):
        """Remove a key from a section (not from DEFAULT through it); False if it was not there."""
        return self._values(section).pop(self._key(key), None) is not None

    def _raw(self, section, key):
        key = self._key(key)
        values = self._values(section)
        if key in values:
            return values[key]
        return self._sections[DEFAULT_SECTION].get(key, _MISSING)

    def get(self, section, key, default=_MISSING, raw=False):
        """The value of `key`, interpolated unless `raw`; `default` (if given) when missing."""
        value = self._raw(section, key)
        if value is _MISSING:
            if default is _MISSING:
                raise IniError(f"no key {key!r} in section {section!r}")
            return default
        return value if raw else self._interpolate(section, value, 1)

    def _interpolate(self, section, value, depth):
        if depth > MAX_DEPTH:
            raise IniError(f"interpolation deeper than {MAX_DEPTH} levels in section {section!r}")

        def replace(match):
            if match.group(1) == "$":
                return "$"
            reference = match.group(2)
            target, _, key = reference.rpartition(":")
            target = target or section
            if target not in self._sections:
                raise IniError(f"${{{reference}}} refers to a missing section {target!r}")
            found = self._raw(target, key)
            if found is _MISSING:
                raise IniError(f"${{{reference}}} in section {section!r} refers to a missing key")
            return self._interpolate(target, found, depth + 1)

        return _REFERENCE.sub(replace, value)

    def get_int(self, section, key, default=_MISSING):
        return self._convert(section, key, default, int, "an integer")

    def get_float(self, section, key, default=_MISSING):
        return self._convert(section, key, default, float, "a number")

    def get_bool(self, section, key, default=_MISSING):
        """yes/no, true/false, on/off or 1/0, in any case."""
        return self._convert(section, key, default, _to_bool, "a boolean")

    def get_list(self, section, key, default=_MISSING, separator=None):
        """Items split on `separator` (default: commas and newlines), stripped, empty ones dropped."""
        value = self.get(section, key, _MISSING if default is _MISSING else None)
        if value is None:
            return default
        items = re.split(r"[,\n]", value) if separator is None else value.split(separator)
        return [item.strip() for item in items if item.strip()]

    def _convert(self, section, key, default, convert, what):
        value = self.get(section, key, _MISSING if default is _MISSING else None)
        if value is None:
            return default
        try:
            return convert(value.strip())
        except ValueError:
            raise IniError(f"{section}.{key}: expected {what}, not {value!r}") from None

    def as_dict(self, raw=False):
        """{section: {key: value}} for every section, DEFAULT values included."""
        return {name: {key: self.get(name, key, raw=raw) for key in self.keys(name)} for name in self.sections()}

    def to_string(self):
        """INI text that parse_ini() reads back to the same values."""
        blocks = []
        for name, values in self._sections.items():
            if name == DEFAULT_SECTION and not values:
                continue
            lines = [f"[{name}]"]
            for key, value in values.items():
                lines.append(f"{key} = {_format_value(value)}")
            blocks.append("\n".join(lines) + "\n")
        return "\n".join(blocks)


def _to_bool(text):
    lowered = text.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ValueError(text)


def _format_value(value):
    if "\n" in value:
        return "\n".join(line if index == 0 else "    " + line for index, line in enumerate(value.split("\n")))
    if _NEEDS_QUOTES.search(value):
        return f'"{value}"'
    return value


def _split_pair(line):
    """(key, value) around the first "=" or ":"; None when the line has neither."""
    positions = [position for position in (line.find("="), line.find(":")) if position >= 0]
    if not positions:
        return None
    at = min(positions)
    return line[:at].strip(), line[at + 1 :]


def _clean_value(value, number):
    value = value.strip()
    if value[:1] in ("'", '"'):
        end = value.find(value[0], 1)
        if end < 0:
            raise IniError("unterminated quoted value", number)
        rest = value[end + 1 :].strip()
        if rest and rest[0] not in ";#":
            raise IniError("text after a quoted value", number)
        return value[1:end]
    comment = _INLINE_COMMENT.search(value)
    return value[: comment.start()].rstrip() if comment else value


def parse_ini(text, case_sensitive=False):
    """Parse INI text. Errors name the line; duplicate sections and keys are errors."""
    ini = IniFile(case_sensitive)
    section = None
    seen_sections = set()
    continued = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped:
            continued = None
            continue
        if stripped[0] in "#;":
            continue
        if line[0] in " \t":
            if continued is None:
                raise IniError("indented line continues nothing", number)
            values, key = continued
            values[key] += "\n" + _clean_value(stripped, number)
            continue
        continued = None
        header = _SECTION.match(stripped)
        if header:
            section = header.group(1).strip()
            if not section:
                raise IniError("empty section name", number)
            if section in seen_sections:
                raise IniError(f"duplicate section {section!r}", number)
            seen_sections.add(section)
            if section != DEFAULT_SECTION:
                ini.add_section(section)
            continue
        if stripped[0] == "[":
            raise IniError(f"bad section header {stripped!r}", number)
        pair = _split_pair(stripped)
        if pair is None:
            raise IniError(f"expected 'key = value', not {stripped!r}", number)
        key, value = pair
        if not key:
            raise IniError("empty key", number)
        if section is None:
            raise IniError(f"key {key!r} before any section", number)
        values = ini._sections[section]
        normalized = ini._key(key)
        if normalized in values:
            raise IniError(f"duplicate key {key!r} in section {section!r}", number)
        values[normalized] = _clean_value(value, number)
        continued = (values, normalized)
    return ini
