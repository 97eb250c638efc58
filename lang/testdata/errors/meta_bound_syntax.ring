// The bound's text is a string.
spec b
topology ring(3)
bound 4 * n rounds
