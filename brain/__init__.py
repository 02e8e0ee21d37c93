"""brain: one shared long-term memory for every AI coding agent."""
