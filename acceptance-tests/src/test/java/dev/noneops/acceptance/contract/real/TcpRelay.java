package dev.noneops.acceptance.contract.real;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP relay in front of a server whose connections a test can cut: {@link #cut()} closes the
 * client's side of every connection through it and refuses new ones until {@link #restore()}, as
 * a network that went away and came back. The server's side of a cut connection stays open, what
 * the server sends on it is read and dropped, until the relay is closed: to the server, the client
 * went silent (as over a real network, where nobody tells it), and the mock server's event loop is
 * never made to handle a WebSocket failing under it (which blocks it for seconds).
 */
final class TcpRelay implements AutoCloseable {
  private final ServerSocket listener;
  private final int targetPort;
  private final List<Connection> open = new ArrayList<>();
  private final List<Connection> severed = new ArrayList<>();
  private volatile boolean refusing;

  TcpRelay(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.listener = new ServerSocket();
    listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    Thread acceptor = new Thread(this::acceptLoop, "tcp-relay-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return listener.getLocalPort();
  }

  /** Cuts every connection on the client's side and refuses new ones. */
  void cut() {
    synchronized (open) {
      refusing = true;
      for (Connection c : open) {
        c.sever();
        severed.add(c);
      }
      open.clear();
    }
  }

  /** Accepts connections again. */
  void restore() {
    refusing = false;
  }

  @Override
  public void close() {
    cut();
    synchronized (open) {
      severed.forEach(Connection::closeBoth);
    }
    closeQuietly(listener);
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        if (refusing) {
          closeQuietly(client);
          continue;
        }
        Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        Connection c = new Connection(client, server);
        synchronized (open) {
          if (refusing) { // cut while this one was being connected: it is cut too
            c.closeBoth();
            continue;
          }
          open.add(c);
        }
        c.start();
      } catch (IOException e) {
        // The listener was closed, or the target refused one connection.
      }
    }
  }

  private static final class Connection {
    private final Socket client;
    private final Socket server;
    private volatile boolean severed;

    Connection(Socket client, Socket server) {
      this.client = client;
      this.server = server;
    }

    void start() {
      thread(() -> {
        try {
          copy(client.getInputStream(), server.getOutputStream(), false);
        } finally {
          closeQuietly(client);
          if (!severed) {
            closeQuietly(server);
          }
        }
      });
      thread(() -> {
        try {
          copy(server.getInputStream(), client.getOutputStream(), true);
        } finally {
          closeBoth();
        }
      });
    }

    void sever() {
      severed = true;
      closeQuietly(client);
    }

    void closeBoth() {
      closeQuietly(client);
      closeQuietly(server);
    }

    private void copy(InputStream in, OutputStream out, boolean toClient) throws IOException {
      byte[] buffer = new byte[16384];
      for (int n; (n = in.read(buffer)) >= 0; ) {
        if (toClient && severed) {
          continue; // the client is gone: what the server says is dropped
        }
        out.write(buffer, 0, n);
        out.flush();
      }
    }

    private static void thread(IoTask task) {
      Thread t = new Thread(
          () -> {
            try {
              task.run();
            } catch (IOException e) {
              // Either side went away.
            }
          },
          "tcp-relay-pump");
      t.setDaemon(true);
      t.start();
    }
  }

  @FunctionalInterface
  private interface IoTask {
    void run() throws IOException;
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // Already closed.
    }
  }
}
