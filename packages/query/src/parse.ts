import { LiqeError, parse, SyntaxError as LiqeSyntaxError, type LiqeQuery, type ParserAst } from 'liqe';

export type QueryAst = LiqeQuery;

/** Longest query text accepted; the parser's work grows quickly with length. */
export const QUERY_MAX_LENGTH = 4000;

/** A query the language does not accept; `position` is the zero-based offset of the problem. */
export class QueryParseError extends Error {
  override readonly name = 'QueryParseError';

  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

/** A field given no value (`host:`) parses, but matches nothing a user could mean. */
function findEmptyValue(ast: ParserAst): { field: string; position: number } | null {
  switch (ast.type) {
    case 'Tag':
      return ast.expression.type === 'EmptyExpression' && ast.field.type === 'Field'
        ? { field: ast.field.name, position: ast.location.end }
        : null;
    case 'LogicalExpression':
      return findEmptyValue(ast.left) ?? findEmptyValue(ast.right);
    case 'ParenthesizedExpression':
      return findEmptyValue(ast.expression);
    case 'UnaryOperator':
      return findEmptyValue(ast.operand);
    case 'EmptyExpression':
      return null;
  }
}

/**
 * Parses the Lucene-like event query language (`field:value`, quoted phrases, AND/OR/NOT, wildcards,
 * ranges, `_exists_:field`) into liqe's syntax tree. Values that start with a digit and hold more than
 * one dot (IP addresses, versions) must be quoted: `ip:"10.0.0.1"`.
 */
export function parseQuery(text: string): QueryAst {
  if (text.length > QUERY_MAX_LENGTH) {
    throw new QueryParseError(`The query is longer than ${QUERY_MAX_LENGTH} characters`, QUERY_MAX_LENGTH);
  }
  let ast: LiqeQuery;
  try {
    ast = parse(text);
  } catch (error) {
    if (error instanceof LiqeSyntaxError) {
      throw new QueryParseError(
        `Unexpected "${text.charAt(error.offset)}" at position ${error.offset + 1}`,
        error.offset,
      );
    }
    if (error instanceof LiqeError) throw new QueryParseError('The query is ambiguous', 0);
    // liqe reports input that stops mid-expression as a bare Error with no position.
    if (error instanceof Error && error.message === 'Found no parsings.') {
      throw new QueryParseError(
        'The query ends too early: close every quote, bracket and parenthesis, and give each operator its operands',
        text.length,
      );
    }
    throw new QueryParseError('The query could not be read', 0);
  }
  const empty = findEmptyValue(ast);
  if (empty) throw new QueryParseError(`The field ${empty.field} has no value`, empty.position);
  return ast;
}

export type QueryValidation = { valid: true } | { valid: false; message: string; position: number };

/** Whether `text` is a query the language accepts, with the parser's reason when it is not. */
export function validateQuery(text: string): QueryValidation {
  try {
    parseQuery(text);
    return { valid: true };
  } catch (error) {
    if (error instanceof QueryParseError) {
      return { valid: false, message: error.message, position: error.position };
    }
    throw error;
  }
}
