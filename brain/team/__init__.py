"""A team's memory: a git repository of records that a team reviews like code.

A team home is a clone, beside the personal home (``<home>/teams/<name>/``), of a
repository with brain's layout and a ``team.yaml`` naming the team and the projects it
covers by their git remote URLs. It is read only here: a record reaches it through a
proposal (a branch ``proposals/<member>/<key>-<id>`` pushed to the team's remote), and a
person accepts it into the team's ``main`` with one merge commit naming the reviewer.

``spec`` reads team.yaml and says which checkouts a team covers; ``repo`` holds every
git command line a team needs; ``members`` creates, joins, lists, leaves and pulls
teams; ``proposals`` proposes, lists, accepts and rejects; ``reading`` gives the
session-start context and recall what a covered checkout sees; ``catalog`` keeps the
team records in the personal search index, a team's commit at a time.
"""
