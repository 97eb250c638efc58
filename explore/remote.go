package explore

import "github.com/ringcheck/ringcheck/model"

// DecideEvery is how many states of a level BFS expands between two
// questions to its monitors of whether they have decided (it asks at
// every level's end too, and a level's points are counted from its first
// state): a search run elsewhere that asks at the same points stops
// with the same counts.
const DecideEvery = decideEvery

// PathFunc returns a path from an initial state to state id: its states
// and the steps between them.
type PathFunc func(id StateID) ([]*model.State, []model.Step, error)

// SetPaths makes r.Path answer with f: a search that ran elsewhere (a
// partitioned one) builds its Result with the paths it rebuilds.
func (r *Result) SetPaths(f PathFunc) { r.paths = pathFunc(f) }

type pathFunc PathFunc

func (f pathFunc) path(id StateID) ([]*model.State, []model.Step, error) { return f(id) }

// HashWords is the hash BFS gives a packed state (a multiply-xorshift
// mix of its words).
func HashWords(ws []uint64) uint64 { return hashWords(ws) }
