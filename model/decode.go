package model

import "fmt"

// Value is a named variable or field value in decoded form. Enum is true
// when the domain is an enumeration, in which case Text is the label.
type Value struct {
	Name string
	Int  int
	Text string
	Enum bool
}

// ProcessView is one process's variables in declaration order.
type ProcessView struct {
	ID   int
	Vars []Value
}

// MessageView is a decoded message.
type MessageView struct {
	Type   string
	Fields []Value
}

// ChannelView is a decoded channel, head first.
type ChannelView struct {
	From, To int
	Messages []MessageView
}

// Snapshot is a configuration decoded with names, for reports and traces.
type Snapshot struct {
	Processes []ProcessView
	Channels  []ChannelView
}

// Decode returns st with names: every process's variables and every
// channel's messages.
func (s *System) Decode(st *State) Snapshot {
	snap := Snapshot{Processes: make([]ProcessView, len(s.Processes))}
	for p, proc := range s.Processes {
		pv := ProcessView{ID: p, Vars: make([]Value, len(proc.Vars))}
		for i, v := range proc.Vars {
			pv.Vars[i] = s.value(s.Vars[v], st.Get(p, v))
		}
		snap.Processes[p] = pv
	}
	for c, ch := range s.Channels {
		cv := ChannelView{From: ch.From, To: ch.To, Messages: make([]MessageView, st.Len(ChanID(c)))}
		for i := range cv.Messages {
			m := st.At(ChanID(c), i)
			mt := s.Messages[s.TypeOf(m)]
			mv := MessageView{Type: mt.Name, Fields: make([]Value, len(mt.Fields))}
			for f, decl := range mt.Fields {
				mv.Fields[f] = s.value(decl, s.Field(m, f))
			}
			cv.Messages[i] = mv
		}
		snap.Channels = append(snap.Channels, cv)
	}
	return snap
}

func (s *System) value(v Var, x int) Value {
	return Value{Name: v.Name, Int: x, Text: v.Domain.Format(x), Enum: v.Domain.IsEnum()}
}

// Encode is Decode's inverse: it returns the configuration snap describes,
// or an error naming what does not fit the system (a process, variable,
// channel, message type or field it does not have, a value outside its
// domain, a channel holding more than its capacity). A value of an
// enumeration is read from its Text when Enum is set, from Int otherwise.
func (s *System) Encode(snap Snapshot) (*State, error) {
	st := s.NewState()
	if len(snap.Processes) != len(s.Processes) {
		return nil, fmt.Errorf("%d processes, but %s has %d", len(snap.Processes), s.Name, len(s.Processes))
	}
	for p, pv := range snap.Processes {
		proc := &s.Processes[p]
		if pv.ID != p {
			return nil, fmt.Errorf("process %d is listed as process %d", p, pv.ID)
		}
		if len(pv.Vars) != len(proc.Vars) {
			return nil, fmt.Errorf("process %d: %d variables, want %d", p, len(pv.Vars), len(proc.Vars))
		}
		for i, v := range proc.Vars {
			x, err := s.encodeValue(s.Vars[v], pv.Vars[i])
			if err != nil {
				return nil, fmt.Errorf("process %d: %w", p, err)
			}
			st.Set(p, v, x)
		}
	}
	if len(snap.Channels) != len(s.Channels) {
		return nil, fmt.Errorf("%d channels, but %s has %d", len(snap.Channels), s.Name, len(s.Channels))
	}
	for c, cv := range snap.Channels {
		ch := &s.Channels[c]
		if cv.From != ch.From || cv.To != ch.To {
			return nil, fmt.Errorf("channel %d is %d→%d, want %d→%d", c, cv.From, cv.To, ch.From, ch.To)
		}
		for i, mv := range cv.Messages {
			m, err := s.encodeMessage(mv)
			if err != nil {
				return nil, fmt.Errorf("channel %d→%d, message %d: %w", ch.From, ch.To, i, err)
			}
			if !st.Push(ChanID(c), m) {
				return nil, fmt.Errorf("channel %d→%d holds more than its capacity %d", ch.From, ch.To, ch.Capacity)
			}
		}
	}
	if err := s.Validate(st); err != nil {
		return nil, err
	}
	return st, nil
}

func (s *System) encodeMessage(mv MessageView) (Msg, error) {
	for t, mt := range s.Messages {
		if mt.Name != mv.Type {
			continue
		}
		if len(mv.Fields) != len(mt.Fields) {
			return 0, fmt.Errorf("%s has %d fields, want %d", mv.Type, len(mv.Fields), len(mt.Fields))
		}
		vals := make([]int, len(mt.Fields))
		for f, decl := range mt.Fields {
			x, err := s.encodeValue(decl, mv.Fields[f])
			if err != nil {
				return 0, fmt.Errorf("%s: %w", mv.Type, err)
			}
			vals[f] = x
		}
		return s.Msg(MsgType(t), vals...), nil
	}
	return 0, fmt.Errorf("no message type %q", mv.Type)
}

func (s *System) encodeValue(decl Var, v Value) (int, error) {
	if v.Name != decl.Name {
		return 0, fmt.Errorf("value named %q where %q was expected", v.Name, decl.Name)
	}
	x := v.Int
	if v.Enum {
		var err error
		if x, err = decl.Domain.Parse(v.Text); err != nil {
			return 0, fmt.Errorf("%s: %w", decl.Name, err)
		}
	}
	if !decl.Domain.Contains(x) {
		return 0, fmt.Errorf("%s = %d is outside %s", decl.Name, x, decl.Domain)
	}
	return x, nil
}
