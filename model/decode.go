package model

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
