spec loops "a for loop too large to unroll, generated as a Go loop"
topology ring(2)
var x: 0..3
var a[0..39]: 0..3
process all {
  action spin: x < 3 -> do {
    let s := 0;
    for i in 0..39 {
      if a[i] < 3 && (i + x) % 7 == 0 { a[i] := a[i] + 1; s := s + 1 }
      else if a[i] == 3 && i % 5 == x { a[i] := 0; s := s + 2 }
      else if a[(i + 1) % 40] > a[i] { a[i] := a[(i + 1) % 40]; s := s + 3 }
      else if a[(i + 2) % 40] > a[i] && s > 1 { a[i] := a[(i + 2) % 40] - 1; s := s - 1 }
    };
    x := x + 1
  }
  action back: x == 3 && a[0] > 0 -> x := 0
}
invariant small: forall p: a[p][0] <= 3
