package tools

// byteRanks orders the bytes by how often they occur in source code and
// text: 0 is the rarest, 255 the most common. It was counted once over the
// text files of the Go distribution's src tree (a rough guide: the finder
// looks for a literal's rarest byte with bytes.IndexByte, so a good guess
// means fewer false candidates; a bad one costs speed, never results).
var byteRanks = [256]uint8{
	0, 22, 14, 18, 28, 23, 36, 42, 2, 252, 248, 15, 1, 80, 49, 3,
	24, 46, 47, 43, 8, 37, 64, 38, 13, 4, 9, 34, 32, 19, 25, 26,
	255, 177, 224, 163, 166, 169, 175, 172, 232, 231, 185, 181, 243, 188, 235, 233,
	251, 236, 229, 220, 221, 205, 218, 200, 212, 201, 226, 182, 174, 223, 171, 159,
	157, 230, 193, 207, 203, 215, 192, 186, 184, 208, 165, 173, 197, 199, 191, 206,
	202, 178, 213, 219, 216, 187, 194, 183, 195, 180, 167, 190, 204, 189, 160, 217,
	164, 247, 222, 241, 238, 254, 239, 227, 225, 246, 168, 198, 240, 228, 249, 244,
	234, 170, 250, 245, 253, 237, 211, 196, 242, 214, 176, 210, 179, 209, 156, 20,
	155, 143, 154, 148, 124, 145, 138, 96, 149, 131, 133, 88, 110, 73, 97, 89,
	106, 90, 93, 111, 136, 139, 87, 137, 144, 135, 69, 75, 132, 140, 103, 76,
	85, 95, 86, 94, 128, 123, 108, 112, 91, 134, 107, 116, 122, 114, 98, 82,
	83, 130, 121, 120, 99, 100, 84, 161, 102, 147, 125, 104, 141, 117, 129, 81,
	10, 16, 162, 127, 60, 58, 35, 67, 57, 79, 78, 61, 119, 77, 153, 109,
	71, 66, 29, 54, 52, 72, 74, 92, 150, 152, 63, 65, 53, 5, 30, 51,
	113, 146, 158, 151, 101, 126, 142, 115, 105, 70, 68, 56, 59, 55, 17, 62,
	118, 21, 39, 50, 40, 31, 45, 6, 44, 11, 12, 7, 27, 48, 41, 33,
}

// byteRank is b's rank; for a case-folded letter, its more common case.
func byteRank(b byte, fold bool) uint8 {
	r := byteRanks[b]
	if fold {
		if o, ok := otherCase(b); ok {
			r = max(r, byteRanks[o])
		}
	}
	return r
}

// otherCase is an ASCII letter's other case.
func otherCase(b byte) (byte, bool) {
	switch {
	case b >= 'a' && b <= 'z':
		return b - 'a' + 'A', true
	case b >= 'A' && b <= 'Z':
		return b - 'A' + 'a', true
	}
	return 0, false
}

// best is the most selective requirement info gives.
func best(in litInfo) []lit {
	if in.exact != nil {
		return better(in.req, in.exact)
	}
	return in.req
}

// better returns the more selective of two requirements.
func better(a, b []lit) []lit {
	if setScore(b) > setScore(a) {
		return b
	}
	return a
}

// setScore rates a requirement: its weakest literal, less a little for
// each extra alternative to look for; 0 when it rejects nothing.
func setScore(set []lit) int {
	if !usable(set) {
		return 0
	}
	low := 1 << 30
	for _, l := range set {
		low = min(low, litScore(l))
	}
	return max(1, low-2*(len(set)-1))
}

// litScore grows with a literal's length and the rarity of its rarest byte.
func litScore(l lit) int {
	rare := 255
	for i := 0; i < len(l.s); i++ {
		rare = min(rare, int(byteRank(l.s[i], l.fold)))
	}
	return 4*min(len(l.s), 16) + (255-rare)/8
}
