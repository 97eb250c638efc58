package ir

// This file holds run receives (recv run M, ... while FIELD from Q): the
// action takes, in one step, the run of messages at the head of its
// channel that the paper aggregates ("Receive Token (ToksRcv : set of
// Tok)"): the head, then each next message while the one before it has
// its chaining field set, up to the channel's end or a message of a type
// the run does not hold.

// RunRecv is the run a Receive takes: messages of the types Types,
// chained by their field More, at index MoreIndex[m.ID] in type m (-1
// for a type not in Types).
type RunRecv struct {
	Types     []*Message
	More      string
	MoreIndex []int
}

// Len returns the length of the run at the head of a channel, whose
// message i has type at(i) and, in it, field j value field(i, j); ok is
// false past the channel's end.
func (r *RunRecv) Len(at func(i int) (m *Message, ok bool), field func(i, j int) int) int {
	n := 0
	for {
		m, ok := at(n)
		if !ok || r.MoreIndex[m.ID] < 0 {
			return n
		}
		n++
		if field(n-1, r.MoreIndex[m.ID]) == 0 {
			return n
		}
	}
}

// ForRun runs Body once for each message of the run Recv takes, in
// order, the message held in Temp (a slot of the enclosing sequential
// block) for RunField and RunIs to read.
type ForRun struct {
	Recv *Receive
	Temp *Temp
	Body []Stmt
}

func (*ForRun) stmt() {}

// RunField is field Field of the message a ForRun holds in Temp: at
// index Index[m.ID] in type m (-1: none, and the value is 0).
type RunField struct {
	Temp  *Temp
	Field string
	Index []int
	T     *Type
}

// Type is the field's type.
func (e *RunField) Type() *Type { return e.T }

// RunIs is whether the message a ForRun holds in Temp is of type Msg.
type RunIs struct {
	Temp *Temp
	Msg  *Message
}

// Type is bool.
func (*RunIs) Type() *Type { return boolType }
