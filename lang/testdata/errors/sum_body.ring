spec sums
type status = {idle, busy}
topology ring(3)
var s: status
legitimate: (sum p: s[p]) == 0 && (sum p: s[p] == busy) <= 1
