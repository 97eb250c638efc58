// A process that can repair itself (fix) but may keep toggling a bit of
// its own (tick) instead: per-process weak fairness lets it tick for ever
// outside L, fairness per action obliges the repair.
spec busy "a repair deferred for ever"
param n = 2 in 2..3 "number of processes"
topology ring(n)
var ok: 0..1
var bit: 0..1

process all {
  action fix: ok == 0 -> ok := 1
  action tick: true -> bit := 1 - bit
}

legitimate "every process repaired": forall p: ok[p] == 1
