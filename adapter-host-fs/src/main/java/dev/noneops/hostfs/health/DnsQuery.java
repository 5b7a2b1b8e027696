package dev.noneops.hostfs.health;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A minimal DNS query packet (RFC 1035 section 4): one question for an A record with recursion
 * desired, and the check that a datagram is the response to it.
 */
public final class DnsQuery {

  private static final int HEADER_BYTES = 12;
  private static final int MAX_NAME_BYTES = 255;
  private static final int MAX_LABEL_BYTES = 63;
  private static final int TYPE_A = 1;
  private static final int CLASS_IN = 1;
  private static final int FLAG_RECURSION_DESIRED = 0x0100;
  private static final int FLAG_RESPONSE = 0x8000;

  private DnsQuery() {}

  /**
   * The query packet for {@code name} with transaction id {@code id}.
   *
   * @throws IllegalArgumentException when {@code name} is not a valid DNS name
   */
  public static byte[] build(int id, String name) {
    String fqdn = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    ByteBuffer packet = ByteBuffer.allocate(HEADER_BYTES + MAX_NAME_BYTES + 1 + 4);
    packet.putShort((short) id);
    packet.putShort((short) FLAG_RECURSION_DESIRED);
    packet.putShort((short) 1); // questions
    packet.putShort((short) 0); // answers
    packet.putShort((short) 0); // authority records
    packet.putShort((short) 0); // additional records
    int nameBytes = 1;
    if (!fqdn.isEmpty()) {
      for (String label : fqdn.split("\\.", -1)) {
        byte[] bytes = label.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length == 0
            || bytes.length > MAX_LABEL_BYTES
            || !label.chars().allMatch(c -> c > 32 && c < 127)) {
          throw new IllegalArgumentException("not a valid DNS name: '" + name + "'");
        }
        nameBytes += 1 + bytes.length;
        if (nameBytes > MAX_NAME_BYTES) {
          throw new IllegalArgumentException("DNS name longer than 255 bytes: '" + name + "'");
        }
        packet.put((byte) bytes.length).put(bytes);
      }
    }
    packet.put((byte) 0);
    packet.putShort((short) TYPE_A);
    packet.putShort((short) CLASS_IN);
    byte[] out = new byte[packet.position()];
    packet.flip().get(out);
    return out;
  }

  /** Whether {@code datagram} (of {@code length} bytes) is a response carrying transaction id {@code id}. */
  public static boolean isResponseTo(int id, byte[] datagram, int length) {
    if (length < HEADER_BYTES) {
      return false;
    }
    int responseId = ((datagram[0] & 0xff) << 8) | (datagram[1] & 0xff);
    int flags = ((datagram[2] & 0xff) << 8) | (datagram[3] & 0xff);
    return responseId == (id & 0xffff) && (flags & FLAG_RESPONSE) != 0;
  }
}
