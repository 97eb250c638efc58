package ir

import (
	"fmt"

	"github.com/ringcheck/ringcheck/lang/syntax"
)

// FieldArray is an array field of a message, `NAME[LO..HI]: TYPE`: its
// entries are the fields First..First+Hi-Lo of the message, named
// NAME[LO]..NAME[HI]. Decl is its place among the fields as declared
// (an array counting one), the place a receive binds it at.
type FieldArray struct {
	Name   string
	Lo, Hi int
	First  int
	Decl   int
	Type   *Type
}

// Len returns the number of entries of a.
func (a *FieldArray) Len() int { return a.Hi - a.Lo + 1 }

// EntryName returns the name of entry i's field, NAME[i].
func (a *FieldArray) EntryName(i int) string { return fmt.Sprintf("%s[%d]", a.Name, i) }

// Array returns m's array field named name, or nil.
func (m *Message) Array(name string) *FieldArray {
	for _, a := range m.Arrays {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// FieldElem is an entry of an array field read at an index known only as
// the step runs (a constant index reads the entry's field itself): Elems
// are the reads of entries Lo, Lo+1, ... (each a FieldRef, RunField,
// MsgField or HeadField), Index the index. An index outside Lo..Lo+len(Elems)-1
// is a missing entry: a fault in an action, 0 elsewhere (as an array
// variable's). Name is how the file writes the array (m.lastCS), Pos the
// index's place.
type FieldElem struct {
	Name  string
	Lo    int
	Elems []Expr
	Index Expr
	T     *Type
	Pos   syntax.Pos
}

// Type is the entries' type.
func (e *FieldElem) Type() *Type { return e.T }

// Missing describes the lack of entry i, for an error.
func (e *FieldElem) Missing(i int) string {
	return fmt.Sprintf("%s has no entry %d (its entries are %d..%d)", e.Name, i, e.Lo, e.Lo+len(e.Elems)-1)
}

// Elem returns the read of entry i, or nil when there is none.
func (e *FieldElem) Elem(i int) Expr {
	if i < e.Lo || i >= e.Lo+len(e.Elems) {
		return nil
	}
	return e.Elems[i-e.Lo]
}
