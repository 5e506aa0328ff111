module github.com/payrpc/payrpc-go

go 1.19

require github.com/xeipuuv/gojsonschema v1.2.0

require (
	github.com/xeipuuv/gojsonpointer v0.0.0-20190905194746-02993c407bfb // indirect
	github.com/xeipuuv/gojsonreference v0.0.0-20180127040603-bd5ef7bd5415 // indirect
)
