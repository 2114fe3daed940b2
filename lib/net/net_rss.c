/* SPDX-License-Identifier: BSD-3-Clause */
/* net_rss: the Toeplitz hash of RSS. See net_rss.h. */
#include "net.h"
#include "net_rss.h"

const uint8_t net_rss_key_default[NET_RSS_KEY_LEN] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

uint32_t
net_toeplitz(const uint8_t *key, size_t klen, const void *data, size_t n)
{
	const uint8_t *d = data;
	uint32_t h = 0, win = 0;
	size_t i;
	int b;

	/* win: the 32 key bits from the position of the input bit in hand */
	for (i = 0; i < 4; i++)
		win = win << 8 | (i < klen ? key[i] : 0);
	for (i = 0; i < n; i++) {
		uint8_t next = i + 4 < klen ? key[i + 4] : 0;

		for (b = 7; b >= 0; b--) {
			if ((d[i] >> b) & 1)
				h ^= win;
			win = win << 1 | ((next >> b) & 1);
		}
	}
	return h;
}

uint32_t
net_rss_ipv4_l4(const uint8_t *key, uint32_t src_ip, uint32_t dst_ip, uint16_t src_port,
		uint16_t dst_port)
{
	uint8_t in[12];

	net_wr32(in, src_ip);
	net_wr32(in + 4, dst_ip);
	net_wr16(in + 8, src_port);
	net_wr16(in + 10, dst_port);
	return net_toeplitz(key, NET_RSS_KEY_LEN, in, sizeof(in));
}
