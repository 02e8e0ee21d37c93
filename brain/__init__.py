"""brain: one shared long-term memory for every AI coding agent."""

__version__ = "0.1.0"
