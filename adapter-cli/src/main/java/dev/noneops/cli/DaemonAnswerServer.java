package dev.noneops.cli;

import dev.noneops.cli.AnswerProtocol.ProtocolException;
import dev.noneops.cli.AnswerProtocol.Request;
import dev.noneops.cli.AnswerSocketFile.NotBoundException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * The agent's daemon answering {@code status} and {@code allocation-launch-check} for the CLI
 * over a Unix domain socket ({@link AnswerProtocol}, {@link AnswerSocketFile}), with the warm
 * JVM, D-Bus connection and classes a fresh CLI would pay for. One connection at a time, on one
 * thread of its own, apart from the daemon's loop: a request line is read for at most the read
 * timeout and {@value AnswerProtocol#MAX_REQUEST_BYTES} bytes, so a client that sends nothing or
 * too much is dropped, and the answer is inspected afresh for every request.
 */
final class DaemonAnswerServer implements AutoCloseable {
  /** Inspects the node and renders {@code what} as the CLI's command prints it. */
  @FunctionalInterface
  interface Inspector {
    InspectionReport inspect(Inspection what, boolean json) throws Exception;
  }

  private final Optional<AnswerSocketFile.Bound> bound;
  private final String build;
  private final Inspector inspector;
  private final Logger log;
  private final Duration readTimeout;
  private final Thread thread;

  private DaemonAnswerServer(
      Optional<AnswerSocketFile.Bound> bound,
      String build,
      Inspector inspector,
      Logger log,
      Duration readTimeout) {
    this.bound = bound;
    this.build = build;
    this.inspector = inspector;
    this.log = log;
    this.readTimeout = readTimeout;
    this.thread = new Thread(this::serve, "noneops-answers");
    this.thread.setDaemon(true);
  }

  /**
   * Binds the socket at {@code socket} and answers on it until closed; when it cannot be bound
   * (logged as a warning), a server that answers nothing, so the daemon runs on without it.
   */
  static DaemonAnswerServer start(
      Path socket, String build, Inspector inspector, Logger log, Duration readTimeout) {
    Objects.requireNonNull(build, "build");
    Objects.requireNonNull(inspector, "inspector");
    Optional<AnswerSocketFile.Bound> bound;
    try {
      bound = Optional.of(AnswerSocketFile.bind(socket));
    } catch (NotBoundException e) {
      log.warn("not answering status over a socket: {}", e.getMessage());
      bound = Optional.empty();
    } catch (IOException | RuntimeException e) {
      log.warn("not answering status over a socket: cannot bind {}: {}", socket, e.toString());
      bound = Optional.empty();
    }
    DaemonAnswerServer server = new DaemonAnswerServer(bound, build, inspector, log, readTimeout);
    if (bound.isPresent()) {
      server.thread.start();
      log.info("answering status and {} on {}", Inspection.LAUNCH_CHECK.command(), socket);
    }
    return server;
  }

  /** Whether the socket is bound and answered. */
  boolean serving() {
    return bound.isPresent();
  }

  private void serve() {
    ServerSocketChannel channel = bound.orElseThrow().channel();
    while (channel.isOpen()) {
      try (SocketChannel client = channel.accept()) {
        answer(client);
      } catch (ClosedChannelException closed) {
        if (!channel.isOpen()) {
          return;
        }
      } catch (IOException | RuntimeException e) {
        log.debug("an answer's connection failed: {}", e.toString());
      }
    }
  }

  private void answer(SocketChannel client) throws IOException {
    client.configureBlocking(false);
    try (Selector selector = Selector.open()) {
      long deadline = System.nanoTime() + readTimeout.toNanos();
      byte[] reply;
      try {
        reply = reply(Request.parse(readLine(client, selector, deadline)));
      } catch (ProtocolException e) {
        log.debug("refused a request: {}", e.getMessage());
        reply = AnswerProtocol.refused(e.getMessage());
      }
      write(client, selector, ByteBuffer.wrap(reply), System.nanoTime() + readTimeout.toNanos());
    }
  }

  private byte[] reply(Request request) {
    if (!request.build().equals(build)) {
      return AnswerProtocol.mismatch(build);
    }
    try {
      return AnswerProtocol.answered(inspector.inspect(request.what(), request.json()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return AnswerProtocol.refused("interrupted");
    } catch (Exception e) {
      log.warn("cannot answer {}: {}", request.what().command(), e.toString());
      return AnswerProtocol.refused("cannot inspect the node: " + e.getMessage());
    }
  }

  private static String readLine(SocketChannel client, Selector selector, long deadline)
      throws IOException {
    SelectionKey key = client.register(selector, SelectionKey.OP_READ);
    ByteBuffer buffer = ByteBuffer.allocate(AnswerProtocol.MAX_REQUEST_BYTES);
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    while (true) {
      int read = client.read(buffer);
      if (read < 0) {
        throw new ProtocolException("the request ended without a newline");
      }
      buffer.flip();
      while (buffer.hasRemaining()) {
        byte b = buffer.get();
        if (b == '\n') {
          key.cancel();
          return line.toString(StandardCharsets.UTF_8);
        }
        line.write(b);
      }
      buffer.clear();
      if (line.size() >= AnswerProtocol.MAX_REQUEST_BYTES) {
        throw new ProtocolException(
            "the request line is longer than " + AnswerProtocol.MAX_REQUEST_BYTES + " bytes");
      }
      if (read == 0) {
        await(selector, deadline, "no request line within the read timeout");
      }
    }
  }

  private static void write(
      SocketChannel client, Selector selector, ByteBuffer bytes, long deadline) throws IOException {
    selector.selectNow();
    client.register(selector, SelectionKey.OP_WRITE);
    while (bytes.hasRemaining()) {
      if (client.write(bytes) == 0) {
        await(selector, deadline, "the client did not read the answer within the timeout");
      }
    }
  }

  private static void await(Selector selector, long deadline, String timeout) throws IOException {
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      throw new ProtocolException(timeout);
    }
    selector.select(Math.max(1, left / 1_000_000));
    selector.selectedKeys().clear();
  }

  /** Stops answering and removes the socket file (when it is still this daemon's). */
  @Override
  public void close() {
    if (bound.isEmpty()) {
      return;
    }
    try {
      bound.get().channel().close();
      thread.join(Duration.ofSeconds(5).toMillis());
    } catch (IOException e) {
      log.warn("cannot close the answer socket: {}", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      try {
        bound.get().file().remove();
      } catch (IOException e) {
        log.warn("cannot remove {}: {}", bound.get().file().path(), e.toString());
      }
    }
  }
}
