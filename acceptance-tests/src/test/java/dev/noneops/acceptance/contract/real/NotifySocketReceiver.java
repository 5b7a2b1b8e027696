package dev.noneops.acceptance.contract.real;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Runtime;
import jnr.ffi.annotations.In;
import jnr.ffi.annotations.Out;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;

/**
 * The manager's end of {@code $NOTIFY_SOCKET} for tests: an {@code AF_UNIX} datagram socket bound
 * to a file system path or an abstract name, from which every queued message is read without
 * waiting (a unix datagram is queued when {@code sendto} returns).
 */
final class NotifySocketReceiver implements AutoCloseable {
  private static final int AF_UNIX = 1;
  private static final int SOCK_DGRAM = 2;
  private static final int SOCK_CLOEXEC = 0x80000;
  private static final int MSG_DONTWAIT = 0x40;
  private static final int EAGAIN = 11;

  /** The C library calls the receiver makes; public only because jnr-ffi implements it. */
  public interface Libc {
    int socket(int domain, int type, int protocol);

    int bind(int fd, @In byte[] address, int addressLength);

    @ssize_t
    long recv(int fd, @Out byte[] buffer, @size_t long length, int flags);

    int close(int fd);
  }

  private static final Libc LIBC = LibraryLoader.create(Libc.class).load("c");

  private final String address;
  private int fd;

  private NotifySocketReceiver(String address, int fd) {
    this.address = address;
    this.fd = fd;
  }

  /** Binds {@code address}: an absolute path, or {@code @name} for an abstract name. */
  static NotifySocketReceiver bind(String address) {
    byte[] name = address.getBytes(StandardCharsets.UTF_8);
    boolean abstractName = name[0] == '@';
    if (abstractName) {
      name[0] = 0;
    }
    ByteBuffer sockaddr = ByteBuffer.allocate(110).order(ByteOrder.nativeOrder());
    sockaddr.putShort((short) AF_UNIX).put(name);
    int fd = LIBC.socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    check(fd, "socket");
    int length = 2 + name.length + (abstractName ? 0 : 1);
    if (LIBC.bind(fd, sockaddr.array(), length) != 0) {
      int errno = Runtime.getRuntime(LIBC).getLastError();
      LIBC.close(fd);
      throw new IllegalStateException("bind " + address + ": errno " + errno);
    }
    return new NotifySocketReceiver(address, fd);
  }

  /** The {@code NOTIFY_SOCKET} value that reaches this socket. */
  String address() {
    return address;
  }

  /** Every message queued now, oldest first. */
  List<String> receiveAll() {
    List<String> out = new ArrayList<>();
    byte[] buffer = new byte[4096];
    while (true) {
      long n = LIBC.recv(fd, buffer, buffer.length, MSG_DONTWAIT);
      if (n < 0) {
        int errno = Runtime.getRuntime(LIBC).getLastError();
        if (errno == EAGAIN) {
          return out;
        }
        throw new IllegalStateException("recv " + address + ": errno " + errno);
      }
      out.add(new String(buffer, 0, (int) n, StandardCharsets.UTF_8));
    }
  }

  @Override
  public void close() {
    if (fd >= 0) {
      LIBC.close(fd);
      fd = -1;
    }
  }

  private static void check(int rc, String what) {
    if (rc < 0) {
      throw new IllegalStateException(
          what + ": errno " + Runtime.getRuntime(LIBC).getLastError());
    }
  }
}
