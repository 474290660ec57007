// InfraGraph language (.igl) — the single source of the syntax.
//
// Regenerate the Python parser with scripts/gen_parser.sh after editing this file; a test fails
// when the committed parser under infragraph/lang/_generated/ is stale.
//
// Layout is free: newlines are whitespace and `;` after a statement is optional. Every statement
// starts with a keyword, except edges (`a -- b`) and attributes (`name = value`).
// `#` starts a comment (`//` is integer division); `##` is a doc comment for the declaration that
// follows it (or that precedes it on the same line).
grammar InfraGraph;

// ---------------------------------------------------------------------------------- parser ----

program    : DOCSTRING? topItem* EOF ;
exprOnly   : expr EOF ;   // a -D value

topItem
    : importDecl
    | paramDecl
    | deviceDecl
    | fabricDecl
    | fnDecl
    | linkDecl
    | letStmt
    | assertStmt
    ;

importDecl : IMPORT (STRING | dottedName) (AS name)? SEMI? ;
dottedName : name (DOT name)* ;
paramDecl  : PARAM name COLON typeName (ASSIGN expr)? SEMI? ;
deviceDecl : DEVICE name paramList? block ;
fabricDecl
    : FABRIC name paramList? block              # fabricBody
    | FABRIC name ASSIGN expr SEMI?             # fabricAlias
    ;
fnDecl     : FN name paramList ASSIGN expr SEMI? ;
linkDecl   : LINK name block ;
paramList  : LPAREN (param (COMMA param)* COMMA?)? RPAREN ;
param      : name COLON typeName (ASSIGN expr)? ;
typeName   : name (LBRACK name RBRACK)? ;
block      : LBRACE DOCSTRING? stmt* RBRACE ;

stmt
    : letStmt
    | assertStmt
    | forStmt
    | ifStmt
    | componentStmt
    | instanceStmt
    | linkDecl
    | annotateStmt
    | includeStmt
    | edgeStmt
    | propStmt
    ;

letStmt       : LET name ASSIGN expr SEMI? ;
assertStmt    : ASSERT expr (COMMA expr)? SEMI? ;
forStmt       : FOR name IN expr block ;
ifStmt        : IF expr block (ELSE (ifStmt | block))? ;
componentStmt : COMPONENT name (LBRACK expr RBRACK)? COLON expr attrBlock? SEMI? ;
instanceStmt  : INSTANCE name (LBRACK expr RBRACK)? COLON expr attrBlock? SEMI? ;
attrBlock     : LBRACE propStmt* RBRACE ;
annotateStmt  : ANNOTATE expr attr (COMMA attr)* SEMI? ;
attr          : name ASSIGN expr ;
includeStmt   : INCLUDE expr (AS name)? SEMI? ;
edgeStmt      : expr EDGE expr scheme? (VIA expr)? SEMI? ;
scheme        : ONE2ONE | MANY2MANY | RING ;
propStmt      : name ASSIGN expr SEMI? ;

expr
    : primary                                              # primaryExpr
    | expr DOT name                                        # memberExpr
    | expr LBRACK index RBRACK                             # indexExpr
    | expr LPAREN args? RPAREN                             # callExpr
    | <assoc = right> expr POW expr                        # powExpr
    | MINUS expr                                           # negExpr
    | expr op = (STAR | SLASH | DSLASH | PERCENT) expr     # mulExpr
    | expr op = (PLUS | MINUS) expr                        # addExpr
    | expr DOTDOT expr                                     # rangeExpr
    | expr op = (LT | LE | GT | GE | EQ | NE | IN) expr    # cmpExpr
    | NOT expr                                             # notExpr
    | expr AND expr                                        # andExpr
    | expr OR expr                                         # orExpr
    ;

primary
    : INT                                                  # intLit
    | FLOAT                                                # floatLit
    | QUANTITY                                             # quantityLit
    | STRING                                               # stringLit
    | (TRUE | FALSE)                                       # boolLit
    | name                                                 # nameRef
    | LINK LPAREN args? RPAREN                             # linkCall
    | LPAREN expr RPAREN                                   # parenExpr
    | LBRACK expr FOR name IN expr (IF expr)? RBRACK       # comprehension
    | LBRACK (expr (COMMA expr)* COMMA?)? RBRACK           # listLit
    | IF expr THEN expr ELSE expr                          # condExpr
    ;

index
    : STAR                                                 # allIndex
    | lo = expr? COLON hi = expr? (COLON step = expr?)?    # sliceIndex
    | expr                                                 # oneIndex
    ;

args       : arg (COMMA arg)* COMMA? ;
arg        : (name ASSIGN)? expr ;
name       : IDENT | QIDENT ;

// ----------------------------------------------------------------------------------- lexer ----

IMPORT    : 'import' ;
AS        : 'as' ;
PARAM     : 'param' ;
DEVICE    : 'device' ;
FABRIC    : 'fabric' ;
FN        : 'fn' ;
LINK      : 'link' ;
LET       : 'let' ;
ASSERT    : 'assert' ;
FOR       : 'for' ;
IN        : 'in' ;
IF        : 'if' ;
THEN      : 'then' ;
ELSE      : 'else' ;
COMPONENT : 'component' ;
INSTANCE  : 'instance' ;
ANNOTATE  : 'annotate' ;
INCLUDE   : 'include' ;
VIA       : 'via' ;
ONE2ONE   : 'one2one' ;
MANY2MANY : 'many2many' ;
RING      : 'ring' ;
TRUE      : 'true' ;
FALSE     : 'false' ;
AND       : 'and' ;
OR        : 'or' ;
NOT       : 'not' ;

DOCSTRING : '"""' .*? '"""' ;
STRING    : '"' (~["\\\r\n] | '\\' .)* '"' ;

// A number followed (on the same line) by a unit symbol is one token: `400 Gbps`, `400 Gbit/s`,
// `50 GB/s`, `1.5us`, `1 MiB`. Which symbols are real units is decided by infragraph/units.py.
QUANTITY  : NUM [ \t]* UNIT ;
FLOAT     : DIGITS '.' DIGITS EXPONENT? | DIGITS EXPONENT ;
INT       : DIGITS ;

fragment NUM      : DIGITS ('.' DIGITS)? EXPONENT? ;
fragment DIGITS   : [0-9] ('_'? [0-9])* ;
fragment EXPONENT : [eE] [+-]? [0-9]+ ;
fragment UNIT
    : ([kKMGTP] 'i'?)? ('bps' | 'b/s' | 'bit/s' | 'bits/s' | 'B/s' | 'Bps' | 'bits' | 'bit' | 'b' | 'B')
    | 's' | 'ms' | 'us' | '\u00B5s' | 'ns' | 'ps' | 'Hz' | 'kHz' | 'MHz' | 'GHz'
    ;

EDGE      : '--' ;
DOTDOT    : '..' ;
DSLASH    : '//' ;
POW       : '**' ;
LE        : '<=' ;
GE        : '>=' ;
EQ        : '==' ;
NE        : '!=' ;
LT        : '<' ;
GT        : '>' ;
ASSIGN    : '=' ;
PLUS      : '+' ;
MINUS     : '-' ;
STAR      : '*' ;
SLASH     : '/' ;
PERCENT   : '%' ;
DOT       : '.' ;
COMMA     : ',' ;
COLON     : ':' ;
SEMI      : ';' ;
LPAREN    : '(' ;
RPAREN    : ')' ;
LBRACK    : '[' ;
RBRACK    : ']' ;
LBRACE    : '{' ;
RBRACE    : '}' ;

IDENT     : [a-zA-Z_] [a-zA-Z0-9_]* ;
QIDENT    : '`' ~[`\r\n]+ '`' ;   // any document name, e.g. `leaf(32)` or `my-device`

DOC_COMMENT : '##' ~[\r\n]* -> channel(HIDDEN) ;
COMMENT     : '#' ~[\r\n]* -> channel(HIDDEN) ;
WS          : [ \t\r\n]+ -> channel(HIDDEN) ;

// Anything else becomes a token the parser rejects with a located "unexpected character".
ERROR_CHAR : . ;
