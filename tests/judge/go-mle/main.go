package main

import "fmt"

func main() {
	keep := [][]byte{}
	for i := 0; i < 512; i++ {
		b := make([]byte, 1<<20)
		for j := range b {
			b[j] = byte(i)
		}
		keep = append(keep, b)
	}
	fmt.Println(len(keep))
}
