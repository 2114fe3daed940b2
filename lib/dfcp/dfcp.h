/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp: the DFCP protocol core (Digital Fountain based Communication
 * Protocol). Wire format, connection state machine, fountain-coded sender
 * and receiver with full reliability, listener with bounded half-open
 * connections. Sources and sinks are lib/net's (net_source_fn, net_sink_fn).
 *
 * No DPDK calls. Time is passed in (nanoseconds, any monotonic origin);
 * packets are plain byte buffers owned by the caller. The engine drives a
 * connection with three calls per burst:
 *   dfcp_conn_rx()        for every received DFCP packet of the connection
 *                         (or dfcp_ep_rx() to demultiplex on an endpoint),
 *   dfcp_conn_tx_burst()  "give me up to n frames to send now",
 *   dfcp_conn_next_deadline() to know when to call again when idle.
 * Functions return 0 or a negative errno; burst calls return counts.
 * See doc/protocol.md for the wire format and the rules.
 */
#ifndef DFCP_H
#define DFCP_H

#include <stddef.h>
#include <stdint.h>

#include "net.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Wire format                                                          */
/* ------------------------------------------------------------------ */

#define DFCP_VERSION		1
#define DFCP_ETH_LEN		14
#define DFCP_IP_LEN		20
#define DFCP_UDP_LEN		8
#define DFCP_L2L4_LEN		(DFCP_ETH_LEN + DFCP_IP_LEN + DFCP_UDP_LEN)
#define DFCP_COMMON_LEN		12	/* version, type, flags, two conn ids */
#define DFCP_DATA_HDR_LEN	24	/* common + block, payload id, block len */
#define DFCP_RND_LEN		8	/* DATA round header: seq, round length, position */
#define DFCP_CRC_LEN		4	/* DATA block CRC-32C (flag DFCP_F_CRC) */
#define DFCP_TAG_LEN		8	/* SipHash-2-4 tag ending every message (DFCP_F_AUTH) */
#define DFCP_AEAD_TAG_LEN	16	/* AEAD tag ending an encrypted DATA (DFCP_F_CRYPT) */
#define DFCP_KX_LEN		36	/* SYN/SYNACK key exchange: suite, 3 zero bytes, X25519 key */
/*
 * Offset of the symbol in a DATA frame: 78 with the round header and the
 * block CRC (flags DFCP_F_RND and DFCP_F_CRC, negotiated by DFCP_F_XR and
 * DFCP_F_CRC: the default), 74 with the round header only, 66 with
 * neither (the version-1 layout). DFCP_DATA_OFF is the largest: size
 * frames with it, plus DFCP_TAG_LEN with authentication (the tag follows
 * the symbol): dfcp_data_frame_len().
 */
#define DFCP_DATA_OFF_V1	(DFCP_L2L4_LEN + DFCP_DATA_HDR_LEN) /* 66 */
#define DFCP_DATA_OFF_XR	(DFCP_DATA_OFF_V1 + DFCP_RND_LEN) /* 74 */
#define DFCP_DATA_OFF		(DFCP_DATA_OFF_XR + DFCP_CRC_LEN) /* 78 */
#define DFCP_CTRL_MAX_LEN	(DFCP_L2L4_LEN + 72 + DFCP_TAG_LEN) /* largest: a SYN with DFCP_F_CRYPT */
#define DFCP_MIN_FRAME		60	/* frames are padded to this */

#define DFCP_ETHERTYPE_IPV4	0x0800

/* Defaults (the thesis): 64 KiB blocks of 1420-byte symbols, K = 47. */
#define DFCP_DEFAULT_T		1420
#define DFCP_DEFAULT_K		47
#define DFCP_DEFAULT_REDUNDANCY	49
#define DFCP_REDUNDANCY_AUTO	0

/* Hard limits a peer may ask for (a listener may set tighter ones). */
#define DFCP_MAX_T		9000
#define DFCP_MIN_T		16
#define DFCP_MAX_K		8192
#define DFCP_MAX_WINDOW		65536
#define DFCP_MAX_REDUNDANCY	65535
#define DFCP_HS_RETRIES		5	/* SYN, SYNACK, FIN, FINACK: at most 5 */

enum dfcp_type {
	DFCP_T_SYN = 1,
	DFCP_T_SYNACK = 2,
	DFCP_T_ACK = 3,
	DFCP_T_DATA = 4,
	DFCP_T_BLOCK_ACK = 5,
	DFCP_T_FIN = 6,
	DFCP_T_FINACK = 7,
	DFCP_T_RST = 8,
	DFCP_T_MAX = 9,
};

/* Header flags (16 bits). */
#define DFCP_F_LAST		0x0001	/* DATA: last packet of a send round */
#define DFCP_F_RND		0x0002	/* DATA: carries the round header */
#define DFCP_F_RPT		0x0004	/* BLOCK-ACK: carries the loss report */
#define DFCP_F_CRC		0x0008	/* SYN/SYNACK: block CRC-32C on; DATA: carries it */
#define DFCP_F_ACKS		0x0010	/* SYN/SYNACK: block ACKs on */
#define DFCP_F_ENC		0x0020	/* SYN/SYNACK: sender encodes every block */
#define DFCP_F_DEC		0x0040	/* SYN/SYNACK: receiver decodes */
#define DFCP_F_XR		0x0080	/* SYN/SYNACK: round headers and loss reports */
#define DFCP_F_RHINT		0x0100	/* SYN/SYNACK: the sender wants rate hints */
#define DFCP_F_AUTH		0x0200	/* any type: the message ends in a SipHash-2-4 tag */
#define DFCP_F_CRYPT		0x0400	/* SYN/SYNACK: key exchange follows; DATA: sealed (AEAD) */
/* negotiated options; the responder may clear the extensions (an older peer does) */
#define DFCP_F_OPTS		(DFCP_F_ACKS | DFCP_F_ENC | DFCP_F_DEC | DFCP_F_EXT)
#define DFCP_F_EXT		(DFCP_F_XR | DFCP_F_RHINT | DFCP_F_CRC)

/* BLOCK-ACK status. */
#define DFCP_BA_DECODED		1	/* block decoded (and held or delivered) */
#define DFCP_BA_SHORT		2	/* not decodable yet: 'missing' more needed */

/* How the receiver learnt that a send round was over (loss report rnd_end). */
#define DFCP_END_NONE		0	/* no round closed yet */
#define DFCP_END_LAST		1	/* its last packet arrived */
#define DFCP_END_NEXT		2	/* a packet sent after it arrived */
#define DFCP_END_IDLE		3	/* nothing arrived for the round idle time */

/* RST reasons. */
#define DFCP_RST_UNKNOWN	1	/* no such connection */
#define DFCP_RST_PARAMS		2	/* SYN parameters out of limits */
#define DFCP_RST_ABORT		3	/* local abort */
#define DFCP_RST_FULL		4	/* no connection slot or no receive memory */
#define DFCP_RST_TIMEOUT	5	/* the peer was silent for the peer timeout */

/*
 * Parse and validation errors. The parsers return 0 or the negative of one
 * of these, so the engine counts drops per reason (dfcp_err_str()). The
 * Ethernet / IPv4 and ARP ones are lib/net's (enum net_err), the same numbers.
 */
enum dfcp_err {
	DFCP_E_OK = NET_E_OK,
	DFCP_E_TRUNC_ETH = NET_E_TRUNC_ETH,
	DFCP_E_ETHERTYPE = NET_E_ETHERTYPE,
	DFCP_E_TRUNC_IP = NET_E_TRUNC_IP,
	DFCP_E_IP_HDR = NET_E_IP_HDR,	/* IHL != 5: no options */
	DFCP_E_IP_LEN = NET_E_IP_LEN,
	DFCP_E_IP_CSUM = NET_E_IP_CSUM,
	DFCP_E_IP_FRAG = NET_E_IP_FRAG,
	DFCP_E_IP_PROTO = NET_E_IP_PROTO,	/* not UDP */
	DFCP_E_ARP = NET_E_ARP,		/* malformed ARP */
	DFCP_E_UDP_LEN = NET_E_MAX,	/* UDP length inconsistent */
	DFCP_E_UDP_CSUM,	/* bad UDP checksum */
	DFCP_E_TRUNC_DFCP,	/* shorter than the DFCP common header */
	DFCP_E_VERSION,		/* unknown DFCP version */
	DFCP_E_TYPE,		/* unknown packet type */
	DFCP_E_LEN,		/* length wrong for the packet type */
	DFCP_E_PARAMS,		/* SYN/SYNACK parameters invalid / over limits */
	DFCP_E_ESI,		/* ESI or block length out of range */
	DFCP_E_SYMLEN,		/* DATA symbol length != connection T */
	DFCP_E_CONN,		/* unknown connection id (answered by RST) */
	DFCP_E_STATE,		/* packet not expected in this state */
	DFCP_E_NOBUF,		/* DATA for a block with no free buffer */
	DFCP_E_STALE,		/* DATA for a block already decoded/delivered */
	DFCP_E_BACKLOG,		/* SYN dropped: half-open table full */
	DFCP_E_ADDR,		/* not addressed to us (MAC/IP/port) */
	DFCP_E_ROUND,		/* DATA round header inconsistent */
	DFCP_E_REPORT,		/* loss report inconsistent (parser or sender state) */
	DFCP_E_PEER,		/* not from the connection's peer address:port */
	DFCP_E_AUTH,		/* tag missing, wrong, or not negotiated */
	DFCP_E_CRC,		/* DATA whose block CRC differs from the block's */
	DFCP_E_VALUE,		/* a peer-supplied number out of range (cum, FIN counts, acks) */
	DFCP_E_MEMORY,		/* SYN refused: no receive memory for the connection */
	DFCP_E_REPLAY,		/* DATA seq seen already or older than the anti-replay window */
	DFCP_E_CRYPTO,		/* encryption required but not offered, or another suite */
	DFCP_E_MAX
};

const char *dfcp_err_str(int err);	/* accepts err or -err */

/* Negotiated connection parameters, carried by SYN and SYNACK. */
struct dfcp_params {
	uint32_t block_size;	/* bytes of data per block (<= K*T) */
	uint16_t T;		/* symbol size, bytes */
	uint16_t K;		/* source symbols per block */
	uint32_t window;	/* blocks in flight / receiver block buffers */
	uint16_t redundancy;	/* packets per block, 0 = auto */
	uint16_t flags;		/* DFCP_F_ACKS | DFCP_F_ENC | DFCP_F_DEC */
	/* the sender's limits: what it would accept in the SYNACK */
	uint32_t max_window;
	uint16_t max_K;
	uint16_t max_T;
	/* encryption (DFCP_F_CRYPT): the suite and the sender's X25519 public key */
	uint8_t suite;
	uint8_t kx_pub[32];
};

/* dfcp_pkt.opened: a DATA's symbol not opened yet, opened in place, refused */
#define DFCP_OPEN_NOT		0
#define DFCP_OPEN_OK		1
#define DFCP_OPEN_REFUSED	2
/* conf.rx_defer: DATA frames an endpoint holds for one burst open */
#define DFCP_EP_DEFER		32

/* Parsed view of a DFCP packet (pointers into the frame). */
struct dfcp_pkt {
	/* L2-L4 */
	uint8_t dst_mac[6], src_mac[6];
	uint32_t src_ip, dst_ip;	/* host order */
	uint16_t src_port, dst_port;	/* host order */
	/* DFCP common */
	uint8_t version;
	uint8_t type;
	uint16_t flags;
	uint32_t dst_cid, src_cid;
	/* the DFCP message (common header to the end of the body or symbol) and,
	 * with DFCP_F_AUTH, the tag after it: what dfcp_auth_check() verifies */
	const uint8_t *msg;
	uint32_t msg_len;
	uint64_t tag;
	const uint8_t *atag;	/* DATA with DFCP_F_CRYPT: its AEAD tag */
	uint8_t opened;		/* DFCP_OPEN_*: not yet (dfcp_parse), opened, refused */
	/* per type */
	union {
		struct dfcp_params params;	/* SYN, SYNACK */
		struct {			/* DATA */
			uint32_t block;
			uint32_t esi;
			uint32_t block_len;
			const uint8_t *sym;
			uint32_t sym_len;
			/* round header (flags & DFCP_F_RND) */
			uint32_t seq;		/* DATA packet number of the connection */
			uint16_t rlen;		/* packets in this send round */
			uint16_t rpos;		/* this packet's index in the round */
			uint32_t crc;		/* block CRC-32C (flags & DFCP_F_CRC) */
		} data;
		struct dfcp_back {		/* BLOCK-ACK */
			uint32_t block;
			uint32_t cum;		/* all blocks < cum delivered */
			uint16_t status;	/* DFCP_BA_* */
			uint16_t missing;
			uint32_t rcvd;		/* distinct symbols held */
			uint32_t esi_span;	/* highest ESI seen + 1 */
			uint64_t bitmap;	/* bit i: block cum+1+i decoded */
			/* loss report (flags & DFCP_F_RPT), all mod 2^32 */
			uint32_t rx_pkts;	/* DATA packets received */
			uint32_t seq_next;	/* highest DATA seq received + 1 */
			uint32_t rnd_seq;	/* first seq of the last round that ended */
			uint16_t rnd_len;	/* its packets (from its round header) */
			uint16_t rnd_rcvd;	/* its packets received */
			uint8_t rnd_end;	/* DFCP_END_*: how it ended */
			uint32_t rate;		/* rate hint, DATA packets/s; 0: none */
		} back;
		struct {			/* FIN */
			uint32_t nblocks;
			uint64_t nbytes;
		} fin;
		struct {			/* ACK */
			uint8_t acked;		/* type being acknowledged */
		} ack;
		struct {			/* RST */
			uint16_t reason;
		} rst;
	} u;
};

/* Checksum modes for building. */
enum dfcp_csum {
	DFCP_CSUM_FULL = 0,	/* IPv4 and UDP checksums computed in software */
	DFCP_CSUM_UDP_ZERO,	/* IPv4 computed, UDP checksum 0 (allowed for IPv4) */
	DFCP_CSUM_OFFLOAD,	/* IPv4 0, UDP = pseudo-header sum (NIC completes) */
};

/* Rx checksum policy. */
#define DFCP_RX_IP_CSUM_OK	0x1	/* NIC verified the IPv4 checksum */
#define DFCP_RX_UDP_CSUM_OK	0x2	/* NIC verified the UDP checksum */

/* Addressing of one side of a connection (host order for ip/port). */
struct dfcp_addr {
	uint8_t mac[6];
	uint32_t ip;
	uint16_t port;
};

/*
 * Parse a whole frame (Ethernet/IPv4/UDP/DFCP) and validate everything that
 * does not need connection state. rx_flags: DFCP_RX_*.
 * Returns 0 or -DFCP_E_*.
 */
int dfcp_parse(const void *frame, size_t len, unsigned int rx_flags,
		struct dfcp_pkt *pkt);

/* Validate SYN/SYNACK parameters against limits. 0 or -DFCP_E_PARAMS. */
int dfcp_params_check(const struct dfcp_params *p,
		const struct dfcp_params *limits);

/*
 * Build a frame: L2-L4 headers from src/dst, then the DFCP header of pkt
 * (pkt->type, flags, cids, per-type fields). For DATA, sym/sym_len are
 * copied after the header unless sym == NULL (caller already wrote the
 * symbol at offset DFCP_DATA_OFF). Returns the frame length, or -EMSGSIZE
 * if cap is too small, -EINVAL on a bad type.
 */
int dfcp_build(void *frame, size_t cap, const struct dfcp_addr *src,
		const struct dfcp_addr *dst, const struct dfcp_pkt *pkt,
		enum dfcp_csum csum);

/*
 * Authentication (optional): a 16- or 32-byte key shared by both ends. Every
 * message then ends in a SipHash-2-4 tag over the pseudo-header (source and
 * destination IPv4 address and UDP port) and the message (doc/protocol.md,
 * "Authentication"). A 32-byte key is reduced to SipHash's 128 bits.
 */
struct dfcp_auth {
	uint64_t k0, k1;
};
/* 0, or -EINVAL when len is not 16 or 32. */
int dfcp_auth_init(struct dfcp_auth *a, const void *key, size_t len);
/* 0 if pkt carries a tag and it is right for a; else -DFCP_E_AUTH. */
int dfcp_auth_check(const struct dfcp_auth *a, const struct dfcp_pkt *pkt);
/* dfcp_build with a tag (auth != NULL sets DFCP_F_AUTH and appends it). */
int dfcp_build_auth(void *frame, size_t cap, const struct dfcp_addr *src,
		const struct dfcp_addr *dst, const struct dfcp_pkt *pkt,
		enum dfcp_csum csum, const struct dfcp_auth *auth);
#include "dfcp_aead.h"	/* the suites and the bulk AEAD of DATA */

/* Bytes of a DATA frame with symbol size T: the default layout, plus tag bytes. */
static inline uint32_t
dfcp_data_frame_len(uint32_t T, uint32_t tag_len)
{
	return DFCP_DATA_OFF + T + tag_len;
}

/* ------------------------------------------------------------------ */
/* Connections                                                          */
/* ------------------------------------------------------------------ */

enum dfcp_state {
	DFCP_CLOSED = 0,
	DFCP_SYN_SENT,
	DFCP_SYN_RECV,
	DFCP_ESTABLISHED,
	DFCP_FIN_WAIT1,
	DFCP_FIN_WAIT2,
	DFCP_CLOSE_WAIT,
	DFCP_LAST_ACK,
	DFCP_TIME_WAIT,
	DFCP_STATE_MAX
};
const char *dfcp_state_str(enum dfcp_state s);

/*
 * Why a connection reached CLOSED. Whether it reached its goal is a
 * separate fact (dfcp_stats.completed): a transfer can complete and then
 * lose its last FINACK (FIN_TIMEOUT), or close normally with nothing sent.
 */
enum dfcp_close_reason {
	DFCP_CR_NONE = 0,	/* not closed */
	DFCP_CR_DONE,		/* orderly teardown completed ("normal") */
	DFCP_CR_SYN_TIMEOUT,	/* SYN or SYNACK retries exhausted */
	DFCP_CR_FIN_TIMEOUT,	/* FIN/FINACK retries or FIN_WAIT2 timer */
	DFCP_CR_RESET,		/* RST received from the peer */
	DFCP_CR_ABORT,		/* local abort (dfcp_conn_abort, no memory) */
	DFCP_CR_PEER_TIMEOUT,	/* nothing heard from the peer for peer_timeout */
	DFCP_CR_REFUSED,	/* the peer refused the connection (RST to our SYN, bad SYNACK) */
	DFCP_CR_MAX
};
#define DFCP_CR_NORMAL	DFCP_CR_DONE
/* "none", "normal", "syn-timeout", "fin-timeout", "reset", "abort", "peer-timeout", "refused" */
const char *dfcp_close_reason_str(enum dfcp_close_reason r);

struct hist;
struct dfcp_pool;

/* Per-connection configuration (the thesis's five parameters and more). */
struct dfcp_conn_conf {
	struct dfcp_addr local, remote;
	uint16_t T;			/* symbol size (default 1420) */
	uint16_t K;			/* symbols per block (default 47) */
	uint32_t window;		/* blocks (default 128) */
	uint16_t redundancy;		/* packets per block, 0 = auto (default 49) */
	int acks;			/* block ACKs on (default 1) */
	int encode;			/* encode every block (default 1) */
	int decode;			/* receiver decodes (default 1) */
	enum dfcp_csum csum;		/* tx checksum mode */
	uint64_t hs_rto_ns;		/* SYN/SYNACK/FIN/FINACK timer (200 ms) */
	uint64_t min_rto_ns;		/* lower bound of the block timer (1 ms) */
	uint64_t time_wait_ns;		/* TIME_WAIT duration (1 s) */
	/*
	 * Round headers in DATA and loss reports in BLOCK-ACKs (DFCP_F_XR,
	 * default 1): rounds end without waiting for LAST, the loss estimate
	 * and its dispersion come from every report. 0: the version-1 format
	 * (LAST only, estimate from decoded blocks). Negotiated: both sides.
	 */
	int xr;
	/*
	 * Sender: ask the receiver for rate hints and cap the DATA rate at
	 * 9/8 of the arrival rate it reports while the path shows a standing
	 * queue (default 0: off). Needs xr. Receiver: ignored (it answers
	 * what the sender asks for).
	 */
	int rate_hint;
	/* Receiver: least idle time that ends a round whose tail was lost (250 us) */
	uint64_t round_idle_ns;
	/*
	 * Per-block CRC-32C of the data (DFCP_F_CRC, default 1): a block whose
	 * decode does not match is re-requested, never delivered. Negotiated
	 * (both sides; needs encode and decode on).
	 */
	int integrity;
	/*
	 * Nothing accepted from the peer for this long while ESTABLISHED: the
	 * connection closes (DFCP_CR_PEER_TIMEOUT, RST sent). 0: the default,
	 * 10 block timeouts (srtt + 4 rttvar), at least 3 s.
	 */
	uint64_t peer_timeout_ns;
	/* Authentication key (16 or 32 bytes; auth_key_len 0: none). Both ends. */
	uint8_t auth_key[32];
	uint8_t auth_key_len;
	/*
	 * Encryption (enum dfcp_crypto; needs auth_key, which authenticates the
	 * key exchange): both ends must name the same suite, or the connection
	 * is refused. Through a listener endpoint only (dfcp_ep_*).
	 */
	uint8_t crypto;
	/* DATA's AEAD (a listener's: accept_conf's); NULL: OpenSSL EVP */
	const struct dfcp_aead_ops *aead_ops;
	/*
	 * Shared, preallocated item pool (dfcp_pool_create) the connection
	 * draws encoders (sender) from; NULL: a private pool that makes them on
	 * first need, up to the window (tests and tools; an engine passes one
	 * made at set-up so that a connect allocates nothing).
	 */
	struct dfcp_pool *pool;
	/* application */
	net_source_fn source;	/* e.g. net_src_pattern_read (lib/net) */
	void *source_ctx;
	net_sink_fn sink;	/* e.g. net_sink_count_write (lib/net) */
	void *sink_ctx;
	/* observability (optional, lib/hist): every block acked records first
	 * symbol sent -> ack received, ns (sender side; one writer: the caller) */
	struct hist *block_latency;
};
void dfcp_conn_conf_default(struct dfcp_conn_conf *c);

/* Per-flow statistics. */
struct dfcp_stats {
	uint64_t tx_pkts, tx_bytes;	/* frames and frame bytes sent */
	uint64_t rx_pkts, rx_bytes;
	uint64_t tx_data_pkts, rx_data_pkts;
	uint64_t goodput_bytes;		/* bytes delivered to the sink / acked */
	uint64_t blocks_sent;		/* blocks whose first round went out */
	uint64_t blocks_acked;
	uint64_t blocks_decoded;
	uint64_t blocks_first_pass;	/* acked without any top-up */
	uint64_t blocks_lost;		/* acks off: blocks never decoded */
	uint64_t decode_failures;	/* decode attempts that needed more */
	uint64_t topups;		/* fresh-repair rounds sent */
	uint64_t topup_syms;		/* fresh repair symbols in top-ups */
	uint64_t timeouts;		/* block timer expiries */
	uint64_t short_reports;		/* BLOCK-ACK SHORT sent/received */
	uint64_t retransmits;		/* SYN/SYNACK/FIN/FINACK/ACK resends */
	uint32_t loss_ppm;		/* measured symbol loss, parts per million */
	uint32_t redundancy;		/* packets per block in use */
	uint32_t window_used;		/* blocks in flight / buffers in use */
	uint32_t window;		/* negotiated window */
	uint64_t srtt_ns;
	uint64_t drops[DFCP_E_MAX];	/* received packets dropped, by reason */
	/* how send rounds ended (receiver; the sender's block timer: timeouts) */
	uint64_t rounds_last;		/* the round's last packet arrived */
	uint64_t rounds_next;		/* a later packet arrived first (tail lost) */
	uint64_t rounds_idle;		/* nothing arrived for the round idle time */
	uint64_t rounds_late;		/* idle ends noticed late (a stall): idle time again */
	uint64_t rounds_resumed;	/* rounds ended idle whose rest came after all */
	uint64_t keepalives;		/* receiver: sent (a long round); sender: received */
	/* sender: loss reports */
	uint64_t reports;		/* loss reports accepted */
	uint64_t implicit_topups;	/* top-ups for rounds a later report passed */
	uint64_t early_shorts;		/* SHORTs made before the round's tail could arrive: no top-up */
	uint32_t dispersion_pct;	/* first-round arrivals: variance / binomial, % */
	/* rate hint (sender: the cap in force, 0 none; receiver: last hint sent) */
	uint64_t rate_hint_pps;
	uint64_t rate_capped;		/* sender: bursts shortened by the cap */
	/* no progress for stall_ms while the peer is alive (dfcp_stall_check) */
	uint32_t stall;			/* DFCP_STALL_* now, 0 = progressing */
	uint64_t stalls;		/* stall episodes so far */
	uint32_t stall_ms;		/* the connection's stall time (dfcp_stall_ns) */
	/*
	 * The outcome. completed: the goal was reached (sender: every byte of
	 * the source acknowledged; receiver: a FIN whose block and byte counts
	 * equal what was delivered). close_reason: enum dfcp_close_reason.
	 */
	uint32_t completed;
	uint32_t close_reason;
	uint64_t crc_failures;		/* receiver: decoded blocks whose CRC failed (re-requested) */
	uint64_t hdr_switches;		/* receiver, no key: blocks restarted with the header most
					 * of their packets carry (the first one was bad) */
	uint64_t rx_mem_bytes;		/* receiver: pool memory reserved for this connection */
	/* the code's overhead (doc/protocol.md, "Capacity budget") */
	uint64_t stale_syms;		/* receiver: symbols of blocks already decoded */
	uint32_t efficiency_ppm;	/* sender: goodput / ((1 - loss) x symbol bytes sent) */
};

/*
 * Why a connection makes no progress (no block acked / delivered for its
 * stall time although packets from the peer still arrive). Bits. The
 * stall time is 4 x the usual time between two progresses (EWMA), at
 * least DFCP_STALL_NS, at most DFCP_STALL_MAX_NS: a flow whose share of a
 * bottleneck makes one block take 2 s is not stalled each second.
 */
#define DFCP_STALL_NS		1000000000ull
#define DFCP_STALL_MAX_NS	60000000000ull
#define DFCP_STALL_ON		0x01	/* stalled (always set with the others) */
#define DFCP_STALL_WINDOW	0x02	/* sender: the window is full */
#define DFCP_STALL_TIMERS	0x04	/* sender: every block in flight waits on its timer */
#define DFCP_STALL_NO_DATA	0x08	/* sender: the source gives nothing */
#define DFCP_STALL_PACED	0x10	/* sender: the rate cap holds it back */
#define DFCP_STALL_RX_DROPS	0x20	/* received packets dropped meanwhile */
#define DFCP_STALL_NO_DATA_RX	0x40	/* receiver: no DATA arrives */
#define DFCP_STALL_POOL		0x80	/* sender: the block pool has no encoder for the next block */
/* Text for a stall word ("window full, timers"); buf of 96 bytes is enough. */
const char *dfcp_stall_str(uint32_t why, char *buf, size_t len);

struct dfcp_conn;

/*
 * Active open: allocate the sender (encoders are preallocated here), send
 * a SYN on the first tx_burst. Data flows from the initiator to the
 * responder. Returns NULL on bad configuration or allocation failure.
 */
struct dfcp_conn *dfcp_conn_connect(const struct dfcp_conn_conf *conf,
		uint32_t local_cid, uint64_t now);
void dfcp_conn_free(struct dfcp_conn *c);

/* Feed one parsed packet addressed to this connection. 0 or -DFCP_E_*. */
int dfcp_conn_rx(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now);
/*
 * Write up to n frames into bufs[i] (each cap bytes, >= T + DFCP_DATA_OFF),
 * frame lengths into lens[i]. Control packets first, then data.
 * Runs the timers. Returns the number of frames written.
 */
unsigned int dfcp_conn_tx_burst(struct dfcp_conn *c, uint64_t now,
		void *const *bufs, uint16_t *lens, size_t cap, unsigned int n);
/* Earliest time the connection wants tx_burst called (UINT64_MAX: none). */
uint64_t dfcp_conn_next_deadline(const struct dfcp_conn *c, uint64_t now);
/* Start an orderly close (FIN) from this side; the sender does it itself at end of data. */
int dfcp_conn_close(struct dfcp_conn *c, uint64_t now);
/* Send RST and go to CLOSED. */
void dfcp_conn_abort(struct dfcp_conn *c, uint64_t now);
/*
 * Sender: hold (1) or release (0) the source: while held, no new block is
 * taken from it (the blocks in flight complete, nothing closes: with none
 * in flight it sends keepalives, doc/protocol.md "Dead peers"); a release
 * pulls again from the next transmit on.
 */
void dfcp_conn_hold(struct dfcp_conn *c, int hold);

enum dfcp_state dfcp_conn_state(const struct dfcp_conn *c);
enum dfcp_close_reason dfcp_conn_close_reason(const struct dfcp_conn *c);
uint32_t dfcp_conn_local_cid(const struct dfcp_conn *c);
uint32_t dfcp_conn_remote_cid(const struct dfcp_conn *c);
int dfcp_conn_is_sender(const struct dfcp_conn *c);
const struct dfcp_params *dfcp_conn_params(const struct dfcp_conn *c);
const struct dfcp_addr *dfcp_conn_remote(const struct dfcp_conn *c);
/* Its sink from now on (on_accept: a per-connection context, before any delivery). */
void dfcp_conn_set_sink(struct dfcp_conn *c, net_sink_fn sink, void *ctx);
void dfcp_conn_stats(const struct dfcp_conn *c, struct dfcp_stats *st);

/* ------------------------------------------------------------------ */
/* Endpoint: one local address:port, listener and demultiplexer        */
/* ------------------------------------------------------------------ */

struct dfcp_ep_conf {
	struct dfcp_addr local;
	uint32_t max_conns;		/* connections at most (<= 65535; default 1024) */
	/*
	 * Half-open table (SYNs answered, no ACK yet): small records, no
	 * connection and no buffers; when full the oldest is evicted, and an
	 * entry expires after half_open_ns (0: (5 + 1) x accept_conf.hs_rto_ns).
	 * A handshake survives a flood of R SYN/s while its RTT is below
	 * max_half_open / R. Default 4096 (<= 1 << 20).
	 */
	uint32_t max_half_open;
	uint64_t half_open_ns;
	struct dfcp_params limits;	/* largest window/K/T accepted */
	int listen;			/* accept SYNs */
	struct dfcp_conn_conf accept_conf; /* template for accepted conns */
	enum dfcp_csum csum;
	unsigned int rx_flags;		/* DFCP_RX_* */
	/* called when an accepted connection becomes ESTABLISHED */
	void (*on_accept)(void *ctx, struct dfcp_conn *c);
	void *accept_ctx;
	/*
	 * Receive memory (admission). pool: a shared pool (its K and T are the
	 * only ones accepted) that accepted connections reserve their window's
	 * block buffers and decoders from; else max_rx_memory > 0: the endpoint
	 * makes such a pool of that many bytes at create, for accept_conf's K
	 * and T; else (0) every accepted connection makes its own, on first
	 * need, up to its window (no budget). A SYN's window is clamped to what
	 * is free; none free: refused (RST 4, drop "memory"). Without either,
	 * rx_budget bounds what is made lazily by accounting alone: a SYN's
	 * window x dfcp_rx_block_bytes(its K, T) is clamped to what is left, the
	 * reservation returned when the connection goes. 0: dfcp_rx_budget_default
	 * (max_conns, limits.max_window, accept_conf's K and T); UINT64_MAX: none.
	 */
	struct dfcp_pool *pool;
	uint64_t max_rx_memory;
	uint64_t rx_budget;
	/*
	 * slab: the max_conns connection records with their window arrays are
	 * made at create (dfcp_ep_slab_bytes), so that a connection opening or
	 * closing allocates nothing; a listener's records are receivers (it
	 * makes no active opens), another endpoint's senders. Windows are at
	 * most limits.max_window (required; a connect's is clamped to it), a
	 * receiver's K at most the pool's K (else limits.max_K). 0: records
	 * from the heap when a connection opens.
	 */
	int slab;
	/* Per-endpoint secret for connection ids: 0 = getrandom(); tests fix it. */
	uint64_t secret_seed;
	/* Authentication key (16 or 32 bytes, 0: none): SYNs without it are dropped. */
	uint8_t auth_key[32];
	uint8_t auth_key_len;
	/* Encryption a SYN must offer (enum dfcp_crypto; needs auth_key): else refused. */
	uint8_t crypto;
	/*
	 * rx_defer (with crypto): the DATA of established connections is held
	 * (up to DFCP_EP_DEFER frames) and opened in bursts, one AEAD call for
	 * many, by dfcp_ep_rx_flush(), which the caller makes after each burst of
	 * dfcp_ep_rx() calls, while the frames are still its (valid, writable).
	 * The endpoint flushes by itself before any other frame it handles (the
	 * order of frames is kept) and when the queue is full.
	 */
	int rx_defer;
};
void dfcp_ep_conf_default(struct dfcp_ep_conf *c);

struct dfcp_ep_stats {
	uint64_t rx_pkts;
	uint64_t rst_sent;
	uint64_t syn_accepted;
	uint64_t half_open;		/* current */
	uint64_t conns;			/* current, all states */
	uint64_t arp_replies;
	uint64_t half_open_evicted;	/* the oldest half-open entry made room for a SYN */
	uint64_t half_open_expired;	/* half-open entries that timed out */
	uint64_t syn_clamped;		/* SYNs whose window was clamped (limits or memory) */
	uint64_t slab_bytes;		/* conf.slab: the records made at create */
	uint64_t slab_free;		/* records free now */
	uint64_t slab_refused;		/* connections refused: no record left */
	uint64_t rx_held;		/* conf.rx_defer: sealed DATA held for a burst open */
	uint64_t rx_held_bursts;	/* ... and the AEAD bursts that opened them */
	uint64_t drops[DFCP_E_MAX];
};

/*
 * Bytes dfcp_ep_create makes for a slab of max_conns records (listen: the
 * receiver's arrays with bitmaps for K; else the sender's) of window blocks.
 */
uint64_t dfcp_ep_slab_bytes(uint32_t max_conns, int listen, uint32_t window, uint16_t K);

struct dfcp_ep;
struct dfcp_ep *dfcp_ep_create(const struct dfcp_ep_conf *conf);
void dfcp_ep_free(struct dfcp_ep *ep);	/* frees every connection */
/* Active open through the endpoint (allocates a cid). */
struct dfcp_conn *dfcp_ep_connect(struct dfcp_ep *ep,
		const struct dfcp_conn_conf *conf, uint64_t now);
/* Feed one received frame (DFCP or ARP). 0 or -DFCP_E_* (dropped, counted). */
int dfcp_ep_rx(struct dfcp_ep *ep, const void *frame, size_t len, uint64_t now);
/* conf.rx_defer: the held DATA opened and handled; returns how many were
 * refused (dropped and counted as dfcp_ep_rx does, stale symbols aside). */
unsigned int dfcp_ep_rx_flush(struct dfcp_ep *ep, uint64_t now);
/* Frames held for dfcp_ep_rx_flush (0 without conf.rx_defer). */
unsigned int dfcp_ep_rx_held(const struct dfcp_ep *ep);
/* Pull frames from the endpoint (RSTs, ARP replies) and its connections. */
unsigned int dfcp_ep_tx_burst(struct dfcp_ep *ep, uint64_t now,
		void *const *bufs, uint16_t *lens, size_t cap, unsigned int n);
uint64_t dfcp_ep_next_deadline(const struct dfcp_ep *ep, uint64_t now);
/* Free connections that reached CLOSED; returns how many were freed. */
unsigned int dfcp_ep_reap(struct dfcp_ep *ep);
struct dfcp_conn *dfcp_ep_conn(struct dfcp_ep *ep, uint32_t cid);
/* Iterate: returns the next connection with table index >= *pos, or NULL. */
struct dfcp_conn *dfcp_ep_next_conn(struct dfcp_ep *ep, uint32_t *pos);
void dfcp_ep_stats(const struct dfcp_ep *ep, struct dfcp_ep_stats *st);

#include "dfcp_pool.h"

#ifdef __cplusplus
}
#endif

#endif /* DFCP_H */
