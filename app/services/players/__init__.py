"""Players among themselves: friends and blocks, profiles and reliability, ratings, who may sit with
whom, and the places of the Open tab a player may take.
"""
