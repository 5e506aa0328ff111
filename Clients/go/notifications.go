package payrpc

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/payrpc/payrpc-go/generated"
)

// Notification is a notification the server sent: its method and params.
type Notification struct {
	Method string
	Params json.RawMessage
	// Err is a *ValidationError when the params broke the notification's schema (the
	// notification is delivered anyway, so nothing goes missing unnoticed).
	Err error
}

// Decode unmarshals the params into v.
func (n Notification) Decode(v interface{}) error {
	if len(n.Params) == 0 {
		return nil
	}
	return json.Unmarshal(n.Params, v)
}

// Typed returns the params as the generated struct of the notification (for instance a
// pbba.PaymentStatusChangedNotification value); an error for a method no service declares.
func (n Notification) Typed() (interface{}, error) {
	value, known, err := generated.DecodeNotification(n.Method, n.Params)
	if !known {
		return nil, fmt.Errorf("payrpc: no generated type for the notification %s", n.Method)
	}
	return value, err
}

// Subscription delivers notifications on the channel C, in arrival order, without ever
// blocking the connection: notifications wait in an unbounded queue until C is read. C is
// closed after Close, or once the connection ended and the queue is drained.
type Subscription struct {
	// C receives the notifications.
	C <-chan Notification

	client  *Client
	methods map[string]bool // empty: every method
	ch      chan Notification
	wake    chan struct{}
	stop    chan struct{}
	once    sync.Once

	mu    sync.Mutex
	queue []Notification
	ended bool
}

// Subscribe returns a Subscription to the notifications of the given methods (every
// notification when none is given) that arrive from now on. The generated packages name
// them: client.Subscribe(pbba.NotificationPaymentStatusChanged).
func (c *Client) Subscribe(methods ...string) *Subscription {
	s := &Subscription{
		client: c, methods: map[string]bool{}, ch: make(chan Notification),
		wake: make(chan struct{}, 1), stop: make(chan struct{}),
	}
	s.C = s.ch
	for _, m := range methods {
		s.methods[m] = true
	}
	c.mu.Lock()
	if c.ended {
		s.ended = true
	} else {
		c.subs[s] = struct{}{}
	}
	c.mu.Unlock()
	go s.pump()
	return s
}

// Close stops the subscription and closes C; notifications still queued are dropped.
func (s *Subscription) Close() {
	s.once.Do(func() { close(s.stop) })
	s.client.mu.Lock()
	delete(s.client.subs, s)
	s.client.mu.Unlock()
}

func (s *Subscription) offer(n Notification) {
	if len(s.methods) > 0 && !s.methods[n.Method] {
		return
	}
	s.mu.Lock()
	s.queue = append(s.queue, n)
	s.mu.Unlock()
	s.signal()
}

func (s *Subscription) end() {
	s.mu.Lock()
	s.ended = true
	s.mu.Unlock()
	s.signal()
}

func (s *Subscription) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// pump moves queued notifications to C.
func (s *Subscription) pump() {
	defer close(s.ch)
	for {
		s.mu.Lock()
		if len(s.queue) == 0 {
			ended := s.ended
			s.mu.Unlock()
			if ended {
				return
			}
			select {
			case <-s.wake:
				continue
			case <-s.stop:
				return
			}
		}
		next := s.queue[0]
		s.queue[0] = Notification{}
		s.queue = s.queue[1:]
		s.mu.Unlock()
		select {
		case s.ch <- next:
		case <-s.stop:
			return
		}
	}
}

// notify validates a notification and hands it to the subscriptions.
func (c *Client) notify(method string, params json.RawMessage) {
	n := Notification{Method: method, Params: params}
	if c.schemas != nil {
		if err := c.schemas.validateNotification(method, params); err != nil {
			n.Err = err
			c.opts.logf("%v", err)
		}
	}
	c.mu.Lock()
	subs := make([]*Subscription, 0, len(c.subs))
	for s := range c.subs {
		subs = append(subs, s)
	}
	c.mu.Unlock()
	for _, s := range subs {
		s.offer(n)
	}
}
