package dev.noneops.hostfs.service;

import dev.noneops.hostfs.nativeio.UnixDatagrams;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The systemd journal's native protocol, as {@code sd_journal_send(3)} speaks it: one datagram to
 * {@code /run/systemd/journal/socket} per entry, each field {@code NAME=value} on a line of its
 * own, or, for a value with a line break, {@code NAME}, a newline, the value's length as a 64-bit
 * little-endian number, the value and a newline. The journal adds the sender's trusted fields
 * ({@code _PID}, {@code _SYSTEMD_UNIT}, ...), so {@code journalctl -u UNIT FIELD=value} finds an
 * entry by any field sent.
 */
public final class JournalSocket {
  /** Where journald listens for native entries. */
  public static final Path DEFAULT = Path.of("/run/systemd/journal/socket");

  /** A field name the journal accepts: upper case, digits, underscores; not starting with one. */
  private static final Pattern FIELD = Pattern.compile("[A-Z0-9][A-Z0-9_]{0,63}");

  /** Larger entries go through a memfd in sd_journal_send; the agent's lines never are. */
  static final int MAX_VALUE = 48 * 1024;

  private final Path socket;
  private final UnixDatagrams datagrams;

  private JournalSocket(Path socket, UnixDatagrams datagrams) {
    this.socket = socket;
    this.datagrams = datagrams;
  }

  /** The journal's socket at {@code socket}; empty when there is none (no journald on the host). */
  public static Optional<JournalSocket> at(Path socket) {
    Objects.requireNonNull(socket, "socket");
    if (!Files.exists(socket, LinkOption.NOFOLLOW_LINKS)
        || Files.isRegularFile(socket, LinkOption.NOFOLLOW_LINKS)
        || Files.isDirectory(socket, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    return Optional.of(new JournalSocket(socket, UnixDatagrams.load()));
  }

  /** Sends one entry of {@code fields}, in order ({@code MESSAGE}, {@code PRIORITY}, ...). */
  public void send(List<Map.Entry<String, String>> fields) throws IOException {
    datagrams.send(
        socket.toString().getBytes(StandardCharsets.UTF_8),
        encode(fields),
        "send a journal entry",
        socket.toString());
  }

  /** The datagram of {@code fields}; a field whose name the journal would refuse is left out. */
  static byte[] encode(List<Map.Entry<String, String>> fields) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Map.Entry<String, String> f : fields) {
      if (!FIELD.matcher(f.getKey()).matches() || f.getValue() == null) {
        continue;
      }
      String text = f.getValue();
      byte[] value = text.getBytes(StandardCharsets.UTF_8);
      if (value.length > MAX_VALUE) {
        value = Arrays.copyOf(value, MAX_VALUE);
      }
      byte[] name = f.getKey().getBytes(StandardCharsets.US_ASCII);
      out.writeBytes(name);
      if (text.indexOf('\n') < 0) {
        out.write('=');
        out.writeBytes(value);
      } else {
        out.write('\n');
        long n = value.length;
        for (int i = 0; i < 8; i++) {
          out.write((int) (n >>> (8 * i)) & 0xff);
        }
        out.writeBytes(value);
      }
      out.write('\n');
    }
    return out.toByteArray();
  }
}
