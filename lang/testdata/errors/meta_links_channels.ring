// Links are those of the channels.
spec l
topology ring(3)
var x: 0..2
links reliable
