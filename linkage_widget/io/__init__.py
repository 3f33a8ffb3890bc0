"""Reading and writing linkages: the 2007 text format, the JSON sibling, atomic saves."""
