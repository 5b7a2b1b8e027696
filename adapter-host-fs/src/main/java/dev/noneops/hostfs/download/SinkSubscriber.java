package dev.noneops.hostfs.download;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Streams a response body into a {@link BodySink}, one chunk list at a time, counting bytes and
 * stopping (by cancelling the subscription) the moment the body exceeds its allowance. Can be
 * refused up front (a bad status, an announced length that is too large) without reading a byte.
 */
final class SinkSubscriber implements HttpResponse.BodySubscriber<Long> {

  private final BodySink sink;
  private final long maxBytes;
  private final AttemptFailure refusal;
  private final AtomicLong received = new AtomicLong();
  private final CompletableFuture<Long> result = new CompletableFuture<>();
  private volatile Flow.Subscription subscription;

  SinkSubscriber(BodySink sink, long maxBytes, AttemptFailure refusal) {
    this.sink = sink;
    this.maxBytes = maxBytes;
    this.refusal = refusal;
  }

  /** Bytes consumed so far. */
  long received() {
    return received.get();
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    subscription = s;
    if (refusal != null) {
      fail(refusal);
    } else if (result.isDone()) {
      s.cancel();
    } else {
      s.request(1);
    }
  }

  @Override
  public void onNext(List<ByteBuffer> chunks) {
    if (result.isDone()) {
      return;
    }
    try {
      for (ByteBuffer chunk : chunks) {
        long total = received.get() + chunk.remaining();
        if (total > maxBytes) {
          fail(AttemptFailure.tooLarge("more than " + maxBytes + " bytes"));
          return;
        }
        sink.accept(chunk);
        received.set(total);
      }
    } catch (IOException e) {
      fail(AttemptFailure.sink(e));
      return;
    }
    subscription.request(1);
  }

  @Override
  public void onError(Throwable t) {
    result.completeExceptionally(t);
  }

  @Override
  public void onComplete() {
    result.complete(received.get());
  }

  @Override
  public CompletionStage<Long> getBody() {
    return result;
  }

  /** Ends the transfer with {@code failure} (an idle timeout, an interrupt). */
  void abort(IOException failure) {
    fail(failure);
  }

  private void fail(IOException failure) {
    Flow.Subscription s = subscription;
    if (s != null) {
      s.cancel();
    }
    result.completeExceptionally(failure);
  }
}
