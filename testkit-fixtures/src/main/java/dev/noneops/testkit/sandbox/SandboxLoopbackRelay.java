package dev.noneops.testkit.sandbox;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A TCP port of the host's loopback ({@code 127.0.0.1:<port>}, for example an {@code
 * ArtifactServer}'s) made reachable at the same address inside a sandbox with a network of its own
 * ({@link SandboxNetwork#OWN}), so that what runs there (a CLI, systemd's units) reaches the
 * test's server while no link, address or route joins the two networks.
 *
 * <p>Inside the sandbox a transient socket unit of its systemd listens on {@code
 * 127.0.0.1:<port>} and hands the connections to {@code systemd-socket-proxyd}, which forwards
 * each to a unix socket in the sandbox's {@code /run}; this JVM listens on that socket (bound
 * through {@link SystemdSandbox#path}: a file system, unlike a network, is shared) and connects
 * each connection to the host's port. A reboot brings a new network namespace and a new {@code
 * /run}: open a relay for the new sandbox. {@link #close()} stops both ends.
 */
public final class SandboxLoopbackRelay implements AutoCloseable {
  static final String SOCKET_DIR = "/run/noneops-relay";
  private static final String PROXY = "/lib/systemd/systemd-socket-proxyd";
  private static final int BUFFER = 64 * 1024;

  private final SystemdSandbox sandbox;
  private final int port;
  private final ServerSocketChannel listener;
  private final Thread acceptor;

  private SandboxLoopbackRelay(
      SystemdSandbox sandbox, int port, ServerSocketChannel listener, Thread acceptor) {
    this.sandbox = sandbox;
    this.port = port;
    this.listener = listener;
    this.acceptor = acceptor;
  }

  /**
   * Relays {@code 127.0.0.1:<port>} inside {@code sandbox} to the same port of the host's
   * loopback.
   *
   * @throws UncheckedIOException when the unix socket cannot be bound
   * @throws IllegalStateException when the sandbox's systemd does not start the socket unit
   */
  public static SandboxLoopbackRelay open(SystemdSandbox sandbox, int port) {
    Objects.requireNonNull(sandbox, "sandbox");
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("not a TCP port: " + port);
    }
    String socketInside = SOCKET_DIR + "/" + port + ".sock";
    ServerSocketChannel listener;
    try {
      Path socket = sandbox.path(socketInside);
      Files.createDirectories(Objects.requireNonNull(socket.getParent(), SOCKET_DIR));
      Files.deleteIfExists(socket);
      listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      listener.bind(UnixDomainSocketAddress.of(socket));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen for " + sandbox + "'s port " + port, e);
    }
    Thread acceptor = new Thread(() -> accept(listener, port), "loopback-relay-" + port);
    acceptor.setDaemon(true);
    acceptor.start();
    SandboxLoopbackRelay relay = new SandboxLoopbackRelay(sandbox, port, listener, acceptor);
    CommandResult started = sandbox.exec(
        "systemd-run",
        "--unit",
        relay.unit(),
        "--socket-property=ListenStream=127.0.0.1:" + port,
        PROXY,
        socketInside);
    if (!started.succeeded()) {
      relay.close();
      throw new IllegalStateException("the sandbox's systemd did not relay port " + port + ": "
          + started.stderr().strip());
    }
    return relay;
  }

  /** The transient unit's name in the sandbox, without its {@code .socket}/{@code .service}. */
  String unit() {
    return "noneops-relay-" + port;
  }

  public int port() {
    return port;
  }

  private static void accept(ServerSocketChannel listener, int port) {
    while (listener.isOpen()) {
      SocketChannel inside;
      try {
        inside = listener.accept();
      } catch (IOException closed) {
        return;
      }
      Thread connection = new Thread(() -> relay(inside, port), "loopback-relay-" + port + "-c");
      connection.setDaemon(true);
      connection.start();
    }
  }

  /**
   * One connection: the two directions copied until both ended. The unix side is read and written
   * on the channel itself: the streams of {@code Channels} lock the channel for a read, which
   * would hold every write back while the other direction waits for data.
   */
  private static void relay(SocketChannel inside, int port) {
    try (inside;
        Socket host = new Socket(InetAddress.getLoopbackAddress(), port)) {
      InputStream fromHost = host.getInputStream();
      OutputStream toHost = host.getOutputStream();
      Thread upstream = new Thread(
          () -> {
            try {
              ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
              while (inside.read(buffer) >= 0) {
                toHost.write(buffer.array(), 0, buffer.position());
                toHost.flush();
                buffer.clear();
              }
              host.shutdownOutput();
            } catch (IOException ended) {
              // the connection ended on one side; the other direction ends with it
            }
          },
          "loopback-relay-" + port + "-up");
      upstream.setDaemon(true);
      upstream.start();
      try {
        byte[] chunk = new byte[BUFFER];
        for (int n = fromHost.read(chunk); n >= 0; n = fromHost.read(chunk)) {
          ByteBuffer out = ByteBuffer.wrap(chunk, 0, n);
          while (out.hasRemaining()) {
            inside.write(out);
          }
        }
        inside.shutdownOutput();
      } catch (IOException ended) {
        // as above
      }
      upstream.join();
    } catch (IOException e) {
      // the host's port refused: the sandbox's side sees its connection closed
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the sandbox's socket unit (when it still runs) and this JVM's listener. Idempotent. */
  @Override
  public void close() {
    if (Files.isDirectory(sandbox.path("/proc/1"))) {
      sandbox.systemctl("stop", unit() + ".socket", unit() + ".service");
    }
    try {
      listener.close();
    } catch (IOException ignored) {
      // closed already
    }
    acceptor.interrupt();
  }

  @Override
  public String toString() {
    return "SandboxLoopbackRelay[127.0.0.1:" + port + " in " + sandbox + "]";
  }
}
