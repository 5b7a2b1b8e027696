package dev.noneops.cli;

import dev.noneops.cli.AnswerProtocol.Answer;
import dev.noneops.cli.AnswerProtocol.ProtocolException;
import dev.noneops.cli.AnswerProtocol.Request;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The CLI's side of {@link AnswerProtocol}: one request to the daemon's socket and its whole
 * answer, within one deadline for connecting, sending and reading.
 */
final class AnswerClient {
  private AnswerClient() {}

  /**
   * Asks the daemon at {@code socket}.
   *
   * @throws IOException when there is no daemon to ask, it is busy, it does not answer in time,
   *     or its answer is a mismatch, a refusal or malformed ({@link ProtocolException})
   */
  static Answer ask(Path socket, Request request, Duration deadline) throws IOException {
    long end = System.nanoTime() + deadline.toNanos();
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        Selector selector = Selector.open()) {
      channel.configureBlocking(false);
      if (!channel.connect(UnixDomainSocketAddress.of(socket))) {
        throw new IOException("the daemon's socket " + socket + " takes no connection now");
      }
      SelectionKey key = channel.register(selector, SelectionKey.OP_WRITE);
      ByteBuffer out = ByteBuffer.wrap(request.encode());
      while (out.hasRemaining()) {
        if (channel.write(out) == 0) {
          await(selector, end);
        }
      }
      key.interestOps(SelectionKey.OP_READ);
      ByteArrayOutputStream received = new ByteArrayOutputStream();
      ByteBuffer in = ByteBuffer.allocate(16 * 1024);
      int limit = AnswerProtocol.MAX_ANSWER_BYTES + 128;
      while (true) {
        int read = channel.read(in);
        if (read < 0) {
          return AnswerProtocol.parseAnswer(received.toByteArray());
        }
        received.write(in.array(), 0, in.position());
        in.clear();
        if (received.size() > limit) {
          throw new ProtocolException("an answer longer than " + limit + " bytes");
        }
        if (read == 0) {
          await(selector, end);
        }
      }
    }
  }

  private static void await(Selector selector, long end) throws IOException {
    long left = end - System.nanoTime();
    if (left <= 0) {
      throw new IOException("the daemon did not answer in time");
    }
    selector.select(Math.max(1, left / 1_000_000));
    selector.selectedKeys().clear();
  }
}
