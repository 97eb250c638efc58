spec overflow "constants outside int64"
// 65536^4 is 2^64: M is no constant, and x's range is not 0..3.
const M = 65536 * 65536 * 65536 * 65536 + 3
const H = 1073741824 * 1073741824 * 4
const MIN = -H - H
const N = -MIN
const S = H + H
topology ring(3)
var x: 0..M
