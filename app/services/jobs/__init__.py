"""Background work: the per-process scheduler and its once-per-slot periodic jobs, the sweeper that
plays the defaults of late waits, and what admins see when it falls behind.
"""
