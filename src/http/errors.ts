import { STATUS_CODES } from "node:http";
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "../logging/logger";

/** The one error body of the API, as the merchant API writes it: statusCode, message, error. */
export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export function errorBody(statusCode: number, message: string): ErrorBody {
  return { statusCode, message, error: STATUS_CODES[statusCode] ?? "Error" };
}

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json(errorBody(404, `No route for ${req.method} ${req.path}`));
};

interface BodyParserError {
  type?: string;
  status?: number;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (error instanceof HttpError) {
      res.status(error.statusCode).json(errorBody(error.statusCode, error.message));
      return;
    }
    const status = (error as BodyParserError | null)?.status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      res.status(status).json(errorBody(status, (error as Error).message));
      return;
    }
    logger.error({ err: error, method: req.method, url: req.originalUrl }, "unhandled error");
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(500).json(errorBody(500, "Internal error; it has been logged"));
  };
}
