import type { ErrorCode } from './generated/error-codes.ts';

/**
 * The code of a `CommerceApiError`: one the API documents, the client's own `UNEXPECTED_RESPONSE`
 * (an answer that is not the envelope) and `NOT_MODIFIED` (`unwrap` met a `304`), or a code of a
 * newer server (still a string).
 */
export type ApiErrorCode =
  | ErrorCode
  | 'UNEXPECTED_RESPONSE'
  | 'NOT_MODIFIED'
  | (string & Record<never, never>);

/** The error envelope every failed answer of the API carries. */
export interface ErrorEnvelope {
  error: {
    code: ApiErrorCode;
    message: string;
    requestId: string;
    details?: Record<string, unknown>;
  };
}

/**
 * A failed answer of the API as an error: `code` is the envelope's stable code (branch on it,
 * never on `message`), typed with the codes the API documents.
 */
export class CommerceApiError extends Error {
  override readonly name = 'CommerceApiError';
  readonly code: ApiErrorCode;
  readonly status: number;
  readonly requestId: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  /** The `Retry-After` header of a 429 or 503, in seconds, when the server sent one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, envelope: ErrorEnvelope['error'], headers?: Headers) {
    super(envelope.message);
    this.code = envelope.code;
    this.status = status;
    this.requestId = envelope.requestId ?? headers?.get('x-request-id') ?? undefined;
    this.details = envelope.details;
    const retryAfter = headers?.get('retry-after');
    this.retryAfterSeconds = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
  }

  /** `unwrap` met `304 Not Modified`: the caller sent `If-None-Match` and its copy is current. */
  static notModified(response: Response): CommerceApiError {
    return new CommerceApiError(
      304,
      {
        code: 'NOT_MODIFIED',
        message:
          'HTTP 304 Not Modified: the copy of If-None-Match is current (read it with unwrapConditional)',
        requestId: response.headers.get('x-request-id') ?? '',
      },
      response.headers,
    );
  }

  /** The error of a failed response whose body was already read (`body` is its JSON, or its text). */
  static fromResponse(response: Response, body: unknown): CommerceApiError {
    if (isEnvelope(body)) return new CommerceApiError(response.status, body.error, response.headers);
    // Not the API's envelope (a proxy's page, an empty body): the client's own code
    // `UNEXPECTED_RESPONSE`, with the status and the start of the text.
    return new CommerceApiError(
      response.status,
      {
        code: 'UNEXPECTED_RESPONSE',
        message: `HTTP ${response.status}${typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : ''}`,
        requestId: response.headers.get('x-request-id') ?? '',
      },
      response.headers,
    );
  }
}

function isEnvelope(body: unknown): body is ErrorEnvelope {
  if (body === null || typeof body !== 'object' || !('error' in body)) return false;
  const error = (body as { error: unknown }).error;
  return (
    error !== null &&
    typeof error === 'object' &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}
