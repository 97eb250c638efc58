// found out-of-reach is for a claim from all with no start file; a start
// file is a relative path at or below the file's folder, for convergence,
// which it refutes.
spec c
param n = 3 in 2..6
topology ring(n)
var x: 0..2
legitimate: x[0] == 0
claim convergence holds found out-of-reach from init
claim convergence holds found out-of-reach from "nc.json"
claim convergence holds found violated from "../nc.json"
claim safety holds found violated from "nc.json"
claim convergence holds from "nc.json"
claim convergence holds found maybe from all
claim convergence holds found out-of-reach from all with n = 6
