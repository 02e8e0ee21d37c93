"""Uses: which records were of use, counted per machine and committed with every write.

``counts`` notes each recall and citation as a line in this copy's pending file and
reads every copy's counts back; ``fold`` moves the pending lines into the copy's file
``uses/<copy>.json`` at each commit (:meth:`brain.home.transaction.Transaction.commit`),
safe against a kill; ``weeks`` keeps the per-week counts ``brain ui`` draws; ``worth``
sets a record's uses against what learning it cost.

Part of the floor: the transaction folds the counts into every commit, so nothing here
imports a subsystem of the home. Nothing is imported here either: the hooks note a use
without loading the rest.
"""
