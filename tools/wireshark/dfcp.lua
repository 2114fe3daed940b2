-- SPDX-License-Identifier: BSD-3-Clause
--
-- Wireshark / tshark dissector for DFCP (Digital Fountain based
-- Communication Protocol), version 1, as sent by lib/dfcp over
-- Ethernet / IPv4 / UDP. Wire format: doc/protocol.md. Usage:
-- doc/observability.md.
--
--   tshark -X lua_script:tools/wireshark/dfcp.lua -r capture.pcapng -Y dfcp
--   wireshark: copy this file into ~/.local/lib/wireshark/plugins/
--
-- Finds DFCP on any UDP port by a heuristic (version 1, known type, exact
-- length for the type and flags, non-zero source connection id); the preference
-- dfcp.ports (-o dfcp.ports:5000,6000) also binds UDP ports to DFCP, so
-- malformed packets on them are dissected and flagged too. "Decode As..."
-- offers DFCP for any UDP port. Every check of lib/dfcp's parser that needs
-- no connection state is an expert info (group Malformed, severity Error):
-- dfcp.short, dfcp.bad_version, dfcp.bad_type, dfcp.bad_length,
-- dfcp.bad_cid, dfcp.bad_params, dfcp.bad_payload_id, dfcp.bad_block_len,
-- dfcp.bad_status, dfcp.bad_round, dfcp.bad_report. Extended reports
-- (negotiated by the XR flag): DATA with RND carries the round header
-- (seq, round length, position), BLOCK-ACK with RPT the loss report. DATA
-- with CRC carries the block's CRC-32C (after the round header); any
-- message with AUTH ends in an 8-byte SipHash-2-4 tag (shown, not checked:
-- the key is not in the capture). With the handshake in the capture, DATA symbols are
-- checked against the negotiated T (dfcp.bad_symbol_len, a warning) and
-- classified source (ESI < K) or repair.

local DEFAULT_PORTS = ""	-- lib/dfcp has no fixed port; see doc/observability.md

local dfcp = Proto("dfcp", "Digital Fountain based Communication Protocol")

local T_SYN, T_SYNACK, T_ACK, T_DATA, T_BLOCK_ACK, T_FIN, T_FINACK, T_RST = 1, 2, 3, 4, 5, 6, 7, 8
local TYPES = {
	[1] = "SYN", [2] = "SYNACK", [3] = "ACK", [4] = "DATA", [5] = "BLOCK-ACK",
	[6] = "FIN", [7] = "FINACK", [8] = "RST",
}
-- body length after the 12-byte common header (DATA: at least 12 + 1)
local BODY = { [1] = 24, [2] = 24, [3] = 4, [4] = 12, [5] = 28, [6] = 12, [7] = 0, [8] = 4 }
local RND_LEN, RPT_LEN = 8, 24	-- DATA round header (flag RND), BLOCK-ACK loss report (RPT)
local CRC_LEN, TAG_LEN = 4, 8	-- DATA block CRC (flag CRC), the tag of any message (AUTH)
local COMMON_LEN = 12
local STATUS = { [1] = "DECODED", [2] = "SHORT" }
local ENDS = { [0] = "none", [1] = "LAST arrived", [2] = "a later packet arrived", [3] = "idle" }
local RST_REASONS = {
	[1] = "unknown connection", [2] = "parameters", [3] = "abort",
	[4] = "no slot or receive memory", [5] = "peer timeout",
}
-- hard limits of lib/dfcp (dfcp.h)
local MIN_T, MAX_T, MAX_K, MAX_WINDOW = 16, 9000, 8192, 65536

local f = dfcp.fields
f.version     = ProtoField.uint8("dfcp.version", "Version", base.DEC)
f.type        = ProtoField.uint8("dfcp.type", "Type", base.DEC, TYPES)
f.flags       = ProtoField.uint16("dfcp.flags", "Flags", base.HEX)
f.flag_last   = ProtoField.bool("dfcp.flags.last", "LAST (last packet of a send round)", 16, nil, 0x0001)
f.flag_rnd    = ProtoField.bool("dfcp.flags.rnd", "RND (DATA: round header)", 16, nil, 0x0002)
f.flag_rpt    = ProtoField.bool("dfcp.flags.rpt", "RPT (BLOCK-ACK: loss report)", 16, nil, 0x0004)
f.flag_crc    = ProtoField.bool("dfcp.flags.crc", "CRC (SYN/SYNACK: block CRC on; DATA: carries it)", 16, nil, 0x0008)
f.flag_acks   = ProtoField.bool("dfcp.flags.acks", "ACKS (block acknowledgements on)", 16, nil, 0x0010)
f.flag_enc    = ProtoField.bool("dfcp.flags.enc", "ENC (every block encoded)", 16, nil, 0x0020)
f.flag_dec    = ProtoField.bool("dfcp.flags.dec", "DEC (receiver decodes)", 16, nil, 0x0040)
f.flag_xr     = ProtoField.bool("dfcp.flags.xr", "XR (round headers and loss reports)", 16, nil, 0x0080)
f.flag_rhint  = ProtoField.bool("dfcp.flags.rhint", "RHINT (sender wants rate hints)", 16, nil, 0x0100)
f.flag_auth   = ProtoField.bool("dfcp.flags.auth", "AUTH (the message ends in a tag)", 16, nil, 0x0200)
f.flag_other  = ProtoField.uint16("dfcp.flags.unknown", "Unknown flag bits (ignored)", base.HEX, nil, 0xfc00)
f.dst_cid     = ProtoField.uint32("dfcp.dst_cid", "Destination connection id", base.HEX)
f.src_cid     = ProtoField.uint32("dfcp.src_cid", "Source connection id", base.HEX)
-- SYN / SYNACK
f.block_size  = ProtoField.uint32("dfcp.block_size", "Block size (bytes)", base.DEC)
f.symbol_size = ProtoField.uint16("dfcp.symbol_size", "Symbol size T", base.DEC)
f.k           = ProtoField.uint16("dfcp.k", "Source symbols per block K", base.DEC)
f.window      = ProtoField.uint32("dfcp.window", "Window (blocks)", base.DEC)
f.redundancy  = ProtoField.uint16("dfcp.redundancy", "Redundancy (packets per block, 0 = auto)", base.DEC)
f.max_window  = ProtoField.uint32("dfcp.max_window", "Sender limit: window", base.DEC)
f.max_k       = ProtoField.uint16("dfcp.max_k", "Sender limit: K", base.DEC)
f.max_t       = ProtoField.uint16("dfcp.max_t", "Sender limit: T", base.DEC)
f.reserved    = ProtoField.bytes("dfcp.reserved", "Reserved")
-- ACK
f.acked       = ProtoField.uint8("dfcp.acked", "Acknowledged type", base.DEC, TYPES)
-- DATA (block is shared with BLOCK-ACK)
f.block       = ProtoField.uint32("dfcp.block", "Block", base.DEC)
f.payload_id  = ProtoField.uint32("dfcp.payload_id", "FEC Payload ID (RFC 6330)", base.HEX)
f.sbn         = ProtoField.uint32("dfcp.sbn", "Source block number (SBN)", base.DEC, nil, 0xff000000)
f.esi         = ProtoField.uint32("dfcp.esi", "Encoding symbol id (ESI)", base.DEC, nil, 0x00ffffff)
f.block_len   = ProtoField.uint32("dfcp.block_len", "Block length (bytes)", base.DEC)
f.crc         = ProtoField.uint32("dfcp.crc", "Block CRC-32C", base.HEX)
f.tag         = ProtoField.uint64("dfcp.tag", "SipHash-2-4 tag", base.HEX)
f.symbol      = ProtoField.bytes("dfcp.symbol", "Symbol")
f.symbol_len  = ProtoField.uint32("dfcp.symbol_len", "Symbol length", base.DEC)
f.symbol_kind = ProtoField.string("dfcp.symbol_kind", "Symbol kind")
f.seq         = ProtoField.uint32("dfcp.seq", "DATA sequence number", base.DEC)
f.rlen        = ProtoField.uint16("dfcp.rlen", "Packets in this send round", base.DEC)
f.rpos        = ProtoField.uint16("dfcp.rpos", "Position in the round", base.DEC)
-- BLOCK-ACK
f.cum         = ProtoField.uint32("dfcp.cum", "Cumulative (all blocks below delivered)", base.DEC)
f.status      = ProtoField.uint16("dfcp.status", "Status", base.DEC, STATUS)
f.missing     = ProtoField.uint16("dfcp.missing", "Symbols missing", base.DEC)
f.rcvd        = ProtoField.uint32("dfcp.rcvd", "Distinct symbols held", base.DEC)
f.esi_span    = ProtoField.uint32("dfcp.esi_span", "ESI span (highest ESI seen + 1)", base.DEC)
f.bitmap      = ProtoField.uint64("dfcp.bitmap", "Decoded bitmap (bit i: block cum+1+i)", base.HEX)
f.held        = ProtoField.uint32("dfcp.blocks_held", "Blocks decoded ahead of cum", base.DEC)
f.rx_pkts     = ProtoField.uint32("dfcp.rx_pkts", "Report: DATA packets received", base.DEC)
f.seq_next    = ProtoField.uint32("dfcp.seq_next", "Report: highest DATA seq received + 1", base.DEC)
f.lost        = ProtoField.uint32("dfcp.lost", "Report: DATA packets lost (seq_next - rx_pkts)", base.DEC)
f.rnd_seq     = ProtoField.uint32("dfcp.rnd_seq", "Report: first seq of the last round ended", base.DEC)
f.rnd_len     = ProtoField.uint16("dfcp.rnd_len", "Report: its packets", base.DEC)
f.rnd_rcvd    = ProtoField.uint16("dfcp.rnd_rcvd", "Report: its packets received", base.DEC)
f.rnd_end     = ProtoField.uint8("dfcp.rnd_end", "Report: how it ended", base.DEC, ENDS)
f.rate        = ProtoField.uint32("dfcp.rate", "Report: rate hint (DATA packets/s, 0 none)", base.DEC)
-- FIN
f.nblocks     = ProtoField.uint32("dfcp.nblocks", "Blocks sent", base.DEC)
f.nbytes      = ProtoField.uint64("dfcp.nbytes", "Bytes sent", base.DEC)
-- RST
f.rst_reason  = ProtoField.uint16("dfcp.rst_reason", "Reason", base.DEC, RST_REASONS)
-- anything not understood
f.body        = ProtoField.bytes("dfcp.body", "Undissected body")

local e = {
	short = ProtoExpert.new("dfcp.short", "Truncated DFCP header (< 12 bytes)",
		expert.group.MALFORMED, expert.severity.ERROR),
	bad_version = ProtoExpert.new("dfcp.bad_version", "Unknown DFCP version",
		expert.group.MALFORMED, expert.severity.ERROR),
	bad_type = ProtoExpert.new("dfcp.bad_type", "Unknown DFCP packet type",
		expert.group.MALFORMED, expert.severity.ERROR),
	bad_length = ProtoExpert.new("dfcp.bad_length", "Length wrong for the packet type",
		expert.group.MALFORMED, expert.severity.ERROR),
	bad_cid = ProtoExpert.new("dfcp.bad_cid", "Connection id 0 not allowed here",
		expert.group.MALFORMED, expert.severity.ERROR),
	bad_params = ProtoExpert.new("dfcp.bad_params", "Connection parameter out of range",
		expert.group.MALFORMED, expert.severity.ERROR),
	bad_payload_id = ProtoExpert.new("dfcp.bad_payload_id", "SBN is not block mod 256",
		expert.group.MALFORMED, expert.severity.ERROR),
	bad_block_len = ProtoExpert.new("dfcp.bad_block_len", "Block length 0 or over K*T limits",
		expert.group.MALFORMED, expert.severity.ERROR),
	bad_status = ProtoExpert.new("dfcp.bad_status", "Unknown BLOCK-ACK status",
		expert.group.MALFORMED, expert.severity.ERROR),
	bad_round = ProtoExpert.new("dfcp.bad_round", "Round header inconsistent (position, length, LAST, ESIs)",
		expert.group.MALFORMED, expert.severity.ERROR),
	bad_report = ProtoExpert.new("dfcp.bad_report", "Loss report inconsistent",
		expert.group.MALFORMED, expert.severity.ERROR),
	bad_symbol_len = ProtoExpert.new("dfcp.bad_symbol_len", "Symbol length differs from the negotiated T",
		expert.group.PROTOCOL, expert.severity.WARN),
}
dfcp.experts = { e.short, e.bad_version, e.bad_type, e.bad_length, e.bad_cid,
	e.bad_params, e.bad_payload_id, e.bad_block_len, e.bad_status, e.bad_symbol_len,
	e.bad_round, e.bad_report }

dfcp.prefs.ports = Pref.range("UDP ports", DEFAULT_PORTS,
	"UDP ports always decoded as DFCP (the heuristic finds DFCP on any port)", 65535)

-- K and T of each connection, from SYN / SYNACK (key: the initiator's cid,
-- which is the source cid of its DATA).
local conns = {}

function dfcp.init()
	conns = {}
end

-- Integer helpers without bit32 / bitwise operators (Lua 5.2 to 5.4).
local function shr(v, n)
	return math.floor(v / 2 ^ n)
end

local function bit(v, n)
	return math.floor(v / 2 ^ n) % 2 == 1
end

local function cid_text(c)
	return string.format("0x%08x", c)
end

local function malformed(pinfo, item, ex, text)
	item:add_proto_expert_info(ex, text)
	pinfo.cols.info:append(" [" .. text .. "]")
end

local function dissect_params(tvb, pinfo, t, d, flags, cid_key)
	local bs, T, K = d(0, 4):uint(), d(4, 2):uint(), d(6, 2):uint()
	local win, red = d(8, 4):uint(), d(12, 2):uint()
	local i_bs = t:add(f.block_size, d(0, 4))
	local i_t = t:add(f.symbol_size, d(4, 2))
	local i_k = t:add(f.k, d(6, 2))
	local i_w = t:add(f.window, d(8, 4))
	local i_r = t:add(f.redundancy, d(12, 2))
	if red == 0 then
		i_r:append_text(" (auto)")
	end
	t:add(f.reserved, d(14, 2))
	local i_mw = t:add(f.max_window, d(16, 4))
	local i_mk = t:add(f.max_k, d(20, 2))
	local i_mt = t:add(f.max_t, d(22, 2))
	local bad = (T < MIN_T or T > MAX_T) or (K == 0 or K > MAX_K) or
		(win == 0 or win > MAX_WINDOW) or (bs == 0 or bs > K * T) or
		(red ~= 0 and red < K) or d(16, 4):uint() == 0 or d(20, 2):uint() == 0 or
		d(22, 2):uint() == 0
	if T < MIN_T or T > MAX_T then
		malformed(pinfo, i_t, e.bad_params, "T out of 16..9000")
	end
	if K == 0 or K > MAX_K then
		malformed(pinfo, i_k, e.bad_params, "K out of 1..8192")
	end
	if win == 0 or win > MAX_WINDOW then
		malformed(pinfo, i_w, e.bad_params, "window out of 1..65536")
	end
	if bs == 0 or bs > K * T then
		malformed(pinfo, i_bs, e.bad_params, "block size 0 or over K*T")
	end
	if red ~= 0 and red < K then
		malformed(pinfo, i_r, e.bad_params, "redundancy below K")
	end
	if d(16, 4):uint() == 0 then
		malformed(pinfo, i_mw, e.bad_params, "limit 0")
	end
	if d(20, 2):uint() == 0 then
		malformed(pinfo, i_mk, e.bad_params, "limit 0")
	end
	if d(22, 2):uint() == 0 then
		malformed(pinfo, i_mt, e.bad_params, "limit 0")
	end
	if not pinfo.visited and cid_key ~= 0 and not bad then
		conns[cid_key] = { K = K, T = T }
	end
	pinfo.cols.info:append(string.format(" K=%d T=%d block=%d window=%d redundancy=%s",
		K, T, bs, win, red == 0 and "auto" or tostring(red)))
end

-- Length of the body after the common header that type and flags call for
-- (DATA: the least, a symbol follows).
local function body_len(ty, flags)
	local b = BODY[ty]
	if ty == T_DATA and bit(flags, 1) then
		b = b + RND_LEN
	end
	if ty == T_DATA and bit(flags, 3) then
		b = b + CRC_LEN
	elseif ty == T_BLOCK_ACK and bit(flags, 2) then
		b = b + RPT_LEN
	end
	return b
end

local function dissect_round(pinfo, t, d, flags)
	local rlen, rpos = d(16, 2):uint(), d(18, 2):uint()
	t:add(f.seq, d(12, 4))
	local i_rl = t:add(f.rlen, d(16, 2))
	t:add(f.rpos, d(18, 2))
	local esi = d(4, 4):uint() % 16777216
	if rpos >= rlen or ((rpos + 1 == rlen) ~= bit(flags, 0)) then
		malformed(pinfo, i_rl, e.bad_round, "round position / length / LAST inconsistent")
	elseif rpos > esi or esi - rpos + rlen > 16777216 then
		malformed(pinfo, i_rl, e.bad_round, "the round's ESIs are not within 0 .. 2^24 - 1")
	end
	pinfo.cols.info:append(string.format(" seq=%d round %d/%d", d(12, 4):uint(), rpos + 1, rlen))
end

local function dissect_data(tvb, pinfo, t, d, symlen, src_cid, flags)
	local blk = d(0, 4):uint()
	local pid = d(4, 4):uint()
	local sbn, esi = shr(pid, 24), pid % 16777216
	local blen = d(8, 4):uint()
	local hdr = body_len(T_DATA, flags)

	t:add(f.block, d(0, 4))
	local i_pid = t:add(f.payload_id, d(4, 4))
	local i_sbn = i_pid:add(f.sbn, d(4, 4))
	i_pid:add(f.esi, d(4, 4))
	i_pid:append_text(string.format(" (SBN %d, ESI %d)", sbn, esi))
	local i_bl = t:add(f.block_len, d(8, 4))
	if bit(flags, 1) then
		dissect_round(pinfo, t, d, flags)
	end
	if bit(flags, 3) then
		t:add(f.crc, d(hdr - CRC_LEN, CRC_LEN))
	end
	t:add(f.symbol, d(hdr, symlen))
	local i_sl = t:add(f.symbol_len, symlen):set_generated()
	if sbn ~= blk % 256 then
		malformed(pinfo, i_sbn, e.bad_payload_id, "SBN is not block mod 256")
	end
	if blen == 0 or blen > MAX_K * MAX_T then
		malformed(pinfo, i_bl, e.bad_block_len, "block length 0 or over limits")
	end
	local c = conns[src_cid]
	if c ~= nil then
		t:add(f.symbol_kind, esi < c.K and "source" or "repair"):set_generated()
		if symlen ~= c.T then
			i_sl:add_proto_expert_info(e.bad_symbol_len,
				string.format("symbol length %d, negotiated T %d", symlen, c.T))
		end
	end
	pinfo.cols.info:append(string.format(" block=%d SBN=%d ESI=%d len=%d", blk, sbn, esi, symlen))
end

local function dissect_report(pinfo, t, d)
	local r = d(28)
	local len, rcvd, how = r(12, 2):uint(), r(14, 2):uint(), r(16, 1):uint()
	local lost = (r(4, 4):uint() - r(0, 4):uint()) % 4294967296
	local rt = t:add(dfcp, r(0, RPT_LEN), "Loss report")
	rt:add(f.rx_pkts, r(0, 4))
	rt:add(f.seq_next, r(4, 4))
	rt:add(f.lost, lost):set_generated()
	rt:add(f.rnd_seq, r(8, 4))
	local i_len = rt:add(f.rnd_len, r(12, 2))
	rt:add(f.rnd_rcvd, r(14, 2))
	rt:add(f.rnd_end, r(16, 1))
	rt:add(f.reserved, r(17, 3))
	rt:add(f.rate, r(20, 4))
	if rcvd > len or how > 3 or ((how == 0) ~= (len == 0)) then
		malformed(pinfo, i_len, e.bad_report, "round received > length, or unknown end")
	end
	pinfo.cols.info:append(string.format(" lost=%d/%d", lost, r(4, 4):uint()))
	if len > 0 then
		pinfo.cols.info:append(string.format(" round %d: %d/%d (%s)", r(8, 4):uint(),
			rcvd, len, ENDS[how] or tostring(how)))
	end
end

local function dissect_back(tvb, pinfo, t, d, flags)
	local status, cum = d(8, 2):uint(), d(4, 4):uint()
	local bm_hi, bm_lo = d(20, 4):uint(), d(24, 4):uint()
	t:add(f.block, d(0, 4))
	t:add(f.cum, d(4, 4))
	local i_st = t:add(f.status, d(8, 2))
	t:add(f.missing, d(10, 2))
	t:add(f.rcvd, d(12, 4))
	t:add(f.esi_span, d(16, 4))
	local i_bm = t:add(f.bitmap, d(20, 8))
	local held, list = 0, {}
	for i = 0, 63 do
		local word, bitn = bm_lo, i
		if i >= 32 then
			word, bitn = bm_hi, i - 32
		end
		if bit(word, bitn) then
			held = held + 1
			if #list < 8 then
				list[#list + 1] = tostring((cum + 1 + i) % 4294967296)
			end
		end
	end
	local i_h = i_bm:add(f.held, held):set_generated()
	if held > 0 then
		i_h:append_text(" (blocks " .. table.concat(list, ", ") .. (held > #list and ", ..." or "") .. ")")
	end
	if STATUS[status] == nil then
		malformed(pinfo, i_st, e.bad_status, "unknown status " .. status)
	end
	pinfo.cols.info:append(string.format(" block=%d %s cum=%d rcvd=%d span=%d",
		d(0, 4):uint(), STATUS[status] or tostring(status), cum, d(12, 4):uint(),
		d(16, 4):uint()))
	if status == 2 then
		pinfo.cols.info:append(" missing=" .. d(10, 2):uint())
	end
	if bit(flags, 2) then
		dissect_report(pinfo, t, d)
	end
end

function dfcp.dissector(tvb, pinfo, tree)
	local n = tvb:reported_length_remaining()
	local whole = n
	pinfo.cols.protocol:set("DFCP")
	local t = tree:add(dfcp, tvb(), "DFCP")
	if n < COMMON_LEN then
		pinfo.cols.info:set("DFCP")
		if n > 0 then
			t:add(f.body, tvb())
		end
		malformed(pinfo, t, e.short, string.format("truncated header: %d of 12 bytes", n))
		return n
	end

	local ver, ty, flags = tvb(0, 1):uint(), tvb(1, 1):uint(), tvb(2, 2):uint()
	-- with AUTH the last 8 bytes are the tag: the message is the rest
	local short_tag = bit(flags, 9) and n < COMMON_LEN + TAG_LEN
	if bit(flags, 9) and not short_tag then
		n = n - TAG_LEN
	end
	local dst, src = tvb(4, 4):uint(), tvb(8, 4):uint()
	local name = TYPES[ty] or string.format("type %d", ty)
	pinfo.cols.info:set(string.format("%s %d -> %d", name, pinfo.src_port, pinfo.dst_port))
	t:append_text(", " .. name)

	local i_ver = t:add(f.version, tvb(0, 1))
	t:add(f.type, tvb(1, 1))
	local i_fl = t:add(f.flags, tvb(2, 2))
	i_fl:add(f.flag_last, tvb(2, 2))
	i_fl:add(f.flag_rnd, tvb(2, 2))
	i_fl:add(f.flag_rpt, tvb(2, 2))
	i_fl:add(f.flag_crc, tvb(2, 2))
	i_fl:add(f.flag_acks, tvb(2, 2))
	i_fl:add(f.flag_enc, tvb(2, 2))
	i_fl:add(f.flag_dec, tvb(2, 2))
	i_fl:add(f.flag_xr, tvb(2, 2))
	i_fl:add(f.flag_rhint, tvb(2, 2))
	i_fl:add(f.flag_auth, tvb(2, 2))
	i_fl:add(f.flag_other, tvb(2, 2))
	local names = {}
	if bit(flags, 0) then names[#names + 1] = "LAST" end
	if bit(flags, 1) then names[#names + 1] = "RND" end
	if bit(flags, 2) then names[#names + 1] = "RPT" end
	if bit(flags, 3) then names[#names + 1] = "CRC" end
	if bit(flags, 4) then names[#names + 1] = "ACKS" end
	if bit(flags, 5) then names[#names + 1] = "ENC" end
	if bit(flags, 6) then names[#names + 1] = "DEC" end
	if bit(flags, 7) then names[#names + 1] = "XR" end
	if bit(flags, 8) then names[#names + 1] = "RHINT" end
	if bit(flags, 9) then names[#names + 1] = "AUTH" end
	if #names > 0 then
		i_fl:append_text(" (" .. table.concat(names, ", ") .. ")")
	end
	local i_dst = t:add(f.dst_cid, tvb(4, 4))
	i_dst:set_text("Destination connection id: " .. cid_text(dst))
	local i_src = t:add(f.src_cid, tvb(8, 4))
	i_src:set_text("Source connection id: " .. cid_text(src))
	pinfo.cols.info:append(string.format(" cid %#x->%#x", src, dst))
	if bit(flags, 0) then
		pinfo.cols.info:append(" [LAST]")
	end

	local body = n - COMMON_LEN
	if n < whole then
		t:add(f.tag, tvb(n, TAG_LEN))
	end
	if ver ~= 1 then
		if body > 0 then t:add(f.body, tvb(COMMON_LEN)) end
		malformed(pinfo, i_ver, e.bad_version, "unknown version " .. ver)
		return whole
	end
	if TYPES[ty] == nil then
		if body > 0 then t:add(f.body, tvb(COMMON_LEN)) end
		malformed(pinfo, t, e.bad_type, "unknown type " .. ty)
		return whole
	end
	local need = body_len(ty, flags)
	if short_tag then
		if body > 0 then t:add(f.body, tvb(COMMON_LEN)) end
		malformed(pinfo, t, e.bad_length, "AUTH flag, but no room for the tag")
		return whole
	end
	if (ty == T_DATA and body <= need) or (ty ~= T_DATA and body ~= need) then
		if body > 0 then t:add(f.body, tvb(COMMON_LEN)) end
		malformed(pinfo, t, e.bad_length, string.format("%s body of %d bytes, %s %d",
			name, body, ty == T_DATA and "needs more than" or "needs", need))
		return whole
	end
	if src == 0 then
		malformed(pinfo, i_src, e.bad_cid, "source connection id 0")
	elseif dst == 0 and ty ~= T_SYN and ty ~= T_RST then
		malformed(pinfo, i_dst, e.bad_cid, "destination connection id 0 in " .. name)
	end

	local d = tvb(COMMON_LEN)
	if ty == T_SYN then
		dissect_params(tvb, pinfo, t, d, flags, src)
	elseif ty == T_SYNACK then
		dissect_params(tvb, pinfo, t, d, flags, dst)
	elseif ty == T_ACK then
		t:add(f.acked, d(0, 1))
		t:add(f.reserved, d(1, 3))
		pinfo.cols.info:append(" of " .. (TYPES[d(0, 1):uint()] or tostring(d(0, 1):uint())))
	elseif ty == T_DATA then
		dissect_data(tvb, pinfo, t, d, body - need, src, flags)
	elseif ty == T_BLOCK_ACK then
		dissect_back(tvb, pinfo, t, d, flags)
	elseif ty == T_FIN then
		t:add(f.nblocks, d(0, 4))
		t:add(f.nbytes, d(4, 8))
		pinfo.cols.info:append(string.format(" blocks=%d bytes=%s", d(0, 4):uint(),
			tostring(d(4, 8):uint64())))
	elseif ty == T_RST then
		local r = d(0, 2):uint()
		t:add(f.rst_reason, d(0, 2))
		t:add(f.reserved, d(2, 2))
		pinfo.cols.info:append(" reason=" .. (RST_REASONS[r] or tostring(r)))
	end
	return whole
end

-- Heuristic: cheap and strict, so ordinary UDP is left alone.
local function heuristic(tvb, pinfo, tree)
	local n = tvb:reported_length_remaining()
	if n < COMMON_LEN or tvb:len() < COMMON_LEN then
		return false
	end
	if tvb(0, 1):uint() ~= 1 then
		return false
	end
	local ty = tvb(1, 1):uint()
	if BODY[ty] == nil then
		return false
	end
	local fl = tvb(2, 2):uint()
	local b = body_len(ty, fl)
	if bit(fl, 9) then
		if n < COMMON_LEN + TAG_LEN then
			return false
		end
		n = n - TAG_LEN
	end
	local body = n - COMMON_LEN
	if (ty == T_DATA and body <= b) or (ty ~= T_DATA and body ~= b) then
		return false
	end
	if tvb(8, 4):uint() == 0 then
		return false
	end
	if tvb(4, 4):uint() == 0 and ty ~= T_SYN and ty ~= T_RST then
		return false
	end
	if ty == T_DATA and (tvb:len() < 20 or tvb(16, 1):uint() ~= tvb(15, 1):uint()) then
		return false	-- SBN must be the low byte of the block number
	end
	dfcp.dissector(tvb, pinfo, tree)
	pinfo.conversation = dfcp	-- the rest of this UDP conversation is DFCP
	return true
end

local udp_port = DissectorTable.get("udp.port")
local registered = ""

local function register_ports()
	local ports = tostring(dfcp.prefs.ports)
	if ports == registered then
		return
	end
	if registered ~= "" then
		udp_port:remove(registered, dfcp)
	end
	if ports ~= "" then
		udp_port:add(ports, dfcp)
	end
	registered = ports
end

dfcp.prefs_changed = register_ports
register_ports()
udp_port:add_for_decode_as(dfcp)
dfcp:register_heuristic("udp", heuristic)
