"""YAML read and written by the home: fast where it can be, bounded where it must be.

``head`` writes and reads a record's frontmatter without PyYAML, exactly as PyYAML
would, for the flat shapes most frontmatter has (importing PyYAML costs a write more
than rendering the record); ``limits`` refuses a settings file or a frontmatter that is
too large, too deep or an alias bomb before anything is built from it, since the home
syncs from other machines.

Nothing is imported here; neither module imports PyYAML at the top.
"""
