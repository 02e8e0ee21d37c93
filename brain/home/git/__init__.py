"""git: every git command line brain writes, for the home's repository and for a
project's checkout.

``runner`` starts git (the one module that does) and names its failures; ``repo`` is
the home's repository as every write uses it (log, blobs, commit, stage, unstage);
``locks`` checks that the home is on its branch with nothing under way and clears the
locks a killed git left; ``packing`` keeps the repository packed in the background;
``rewrite`` holds the operations only a history rewrite needs (``brain purge``, and a
sync taking one); ``checkouts`` asks a project's checkout what a record rests on (its
HEAD, a file's object at a commit).

Nothing is imported here: the session-start hook asks ``checkouts`` without loading
the runner's :mod:`subprocess`.
"""
