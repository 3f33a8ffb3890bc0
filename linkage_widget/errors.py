"""Exceptions of the package."""

from __future__ import annotations

__all__ = ["LinkageFormatError"]


class LinkageFormatError(ValueError):
    """A linkage file (or text) that cannot be read.

    Parameters
    ----------
    message : str
        What is wrong.
    source : str
        The file name, or ``"<string>"`` for text.
    line : int or None
        1-based line number, when the problem sits on one line.

    Examples
    --------
    >>> str(LinkageFormatError("'x' is not a number", "a.txt", 3))
    "a.txt, line 3: 'x' is not a number"
    """

    def __init__(self, message: str, source: str = "<string>", line: int | None = None) -> None:
        self.message = message
        self.source = source
        self.line = line
        where = f"{source}, line {line}" if line is not None else source
        super().__init__(f"{where}: {message}")

    def __reduce__(self):  # keep pickling (multiprocessing, nbclient) working
        return (type(self), (self.message, self.source, self.line))
