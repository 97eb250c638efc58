spec broken
topology ring(3)
type Color = {red, blue}
message Tok(more: bool, c: 0..3)
message Q(s: 0..1)
message E(more: Color)
channels capacity 2
var x: 0..3
process all {
  action a: recv run Tok, Q, E, Nope while more from pred -> do { for m in run { x := m.zz } }
  action b: recv run Tok while more from pred -> for m in run { x := 1 }
  action c: x == 0 -> do { for m in run { x := 1 } }
  action d: recv run Tok while more from pred -> do { for m in run { if m is Q { x := m } } }
  action e: x == 1 -> x := if x is Tok then 1 else 2
}
