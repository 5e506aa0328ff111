// Calls payrpc with github.com/sourcegraph/jsonrpc2 (Debian's golang-github-sourcegraph-jsonrpc2-dev)
// and a line codec: JSON-RPC 2.0, one JSON object per line.
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go run docs/examples/go/call.go 127.0.0.1:7070
//
// Calls rpc.health (jsonrpc2 sends "params": null for nil params, which payrpc reads as
// absent), then tatra.executePayment with a broken amount and no contact, and prints what comes
// back. docs/protocol.md shows the output; a test runs this file and compares.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"

	"github.com/sourcegraph/jsonrpc2"
)

// LineCodec frames each message as one line of JSON, as payrpc reads and writes them.
type LineCodec struct{}

// WriteObject writes obj as one line.
func (LineCodec) WriteObject(stream io.Writer, obj interface{}) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	_, err = stream.Write(append(data, '\n'))
	return err
}

// ReadObject reads one line into v.
func (LineCodec) ReadObject(stream *bufio.Reader, v interface{}) error {
	line, err := stream.ReadBytes('\n')
	if err != nil {
		return err
	}
	return json.Unmarshal(line, v)
}

func main() {
	ctx := context.Background()
	socket, err := net.Dial("tcp", os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	// payrpc sends no requests of its own here: a handler that answers nothing is enough.
	ignore := jsonrpc2.HandlerWithError(func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (interface{}, error) {
		return nil, nil
	})
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(socket, LineCodec{}), ignore)
	defer conn.Close()

	var health struct{ Status string }
	if err := conn.Call(ctx, "rpc.health", nil, &health); err != nil {
		log.Fatal(err)
	}
	fmt.Println("rpc.health:", health.Status)

	err = conn.Call(ctx, "tatra.executePayment", map[string]string{"amount": "x"}, nil)
	var rpcError *jsonrpc2.Error
	if !errors.As(err, &rpcError) {
		log.Fatalf("expected an error response, got %v", err)
	}
	fmt.Println("tatra.executePayment: error", rpcError.Code, rpcError.Message)
	var data struct {
		Violations []struct{ Pointer, Message string }
	}
	if rpcError.Data != nil {
		if err := json.Unmarshal(*rpcError.Data, &data); err != nil {
			log.Fatal(err)
		}
	}
	for _, violation := range data.Violations {
		pointer := violation.Pointer
		if pointer == "" {
			pointer = "(root)"
		}
		fmt.Println(" ", pointer+":", violation.Message)
	}
}
