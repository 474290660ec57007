# Generated from InfraGraph.g4 by ANTLR 4.13.2
from antlr4 import *
if "." in __name__:
    from .InfraGraphParser import InfraGraphParser
else:
    from InfraGraphParser import InfraGraphParser

# This class defines a complete generic visitor for a parse tree produced by InfraGraphParser.

class InfraGraphVisitor(ParseTreeVisitor):

    # Visit a parse tree produced by InfraGraphParser#program.
    def visitProgram(self, ctx:InfraGraphParser.ProgramContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#exprOnly.
    def visitExprOnly(self, ctx:InfraGraphParser.ExprOnlyContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#topItem.
    def visitTopItem(self, ctx:InfraGraphParser.TopItemContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#importDecl.
    def visitImportDecl(self, ctx:InfraGraphParser.ImportDeclContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#dottedName.
    def visitDottedName(self, ctx:InfraGraphParser.DottedNameContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#paramDecl.
    def visitParamDecl(self, ctx:InfraGraphParser.ParamDeclContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#deviceDecl.
    def visitDeviceDecl(self, ctx:InfraGraphParser.DeviceDeclContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#fabricBody.
    def visitFabricBody(self, ctx:InfraGraphParser.FabricBodyContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#fabricAlias.
    def visitFabricAlias(self, ctx:InfraGraphParser.FabricAliasContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#fnDecl.
    def visitFnDecl(self, ctx:InfraGraphParser.FnDeclContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#linkDecl.
    def visitLinkDecl(self, ctx:InfraGraphParser.LinkDeclContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#paramList.
    def visitParamList(self, ctx:InfraGraphParser.ParamListContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#param.
    def visitParam(self, ctx:InfraGraphParser.ParamContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#typeName.
    def visitTypeName(self, ctx:InfraGraphParser.TypeNameContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#block.
    def visitBlock(self, ctx:InfraGraphParser.BlockContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#stmt.
    def visitStmt(self, ctx:InfraGraphParser.StmtContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#letStmt.
    def visitLetStmt(self, ctx:InfraGraphParser.LetStmtContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#assertStmt.
    def visitAssertStmt(self, ctx:InfraGraphParser.AssertStmtContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#forStmt.
    def visitForStmt(self, ctx:InfraGraphParser.ForStmtContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#ifStmt.
    def visitIfStmt(self, ctx:InfraGraphParser.IfStmtContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#componentStmt.
    def visitComponentStmt(self, ctx:InfraGraphParser.ComponentStmtContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#instanceStmt.
    def visitInstanceStmt(self, ctx:InfraGraphParser.InstanceStmtContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#attrBlock.
    def visitAttrBlock(self, ctx:InfraGraphParser.AttrBlockContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#annotateStmt.
    def visitAnnotateStmt(self, ctx:InfraGraphParser.AnnotateStmtContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#attr.
    def visitAttr(self, ctx:InfraGraphParser.AttrContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#includeStmt.
    def visitIncludeStmt(self, ctx:InfraGraphParser.IncludeStmtContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#edgeStmt.
    def visitEdgeStmt(self, ctx:InfraGraphParser.EdgeStmtContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#scheme.
    def visitScheme(self, ctx:InfraGraphParser.SchemeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#propStmt.
    def visitPropStmt(self, ctx:InfraGraphParser.PropStmtContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#memberExpr.
    def visitMemberExpr(self, ctx:InfraGraphParser.MemberExprContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#orExpr.
    def visitOrExpr(self, ctx:InfraGraphParser.OrExprContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#cmpExpr.
    def visitCmpExpr(self, ctx:InfraGraphParser.CmpExprContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#indexExpr.
    def visitIndexExpr(self, ctx:InfraGraphParser.IndexExprContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#notExpr.
    def visitNotExpr(self, ctx:InfraGraphParser.NotExprContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#primaryExpr.
    def visitPrimaryExpr(self, ctx:InfraGraphParser.PrimaryExprContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#addExpr.
    def visitAddExpr(self, ctx:InfraGraphParser.AddExprContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#negExpr.
    def visitNegExpr(self, ctx:InfraGraphParser.NegExprContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#mulExpr.
    def visitMulExpr(self, ctx:InfraGraphParser.MulExprContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#powExpr.
    def visitPowExpr(self, ctx:InfraGraphParser.PowExprContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#callExpr.
    def visitCallExpr(self, ctx:InfraGraphParser.CallExprContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#rangeExpr.
    def visitRangeExpr(self, ctx:InfraGraphParser.RangeExprContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#andExpr.
    def visitAndExpr(self, ctx:InfraGraphParser.AndExprContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#intLit.
    def visitIntLit(self, ctx:InfraGraphParser.IntLitContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#floatLit.
    def visitFloatLit(self, ctx:InfraGraphParser.FloatLitContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#quantityLit.
    def visitQuantityLit(self, ctx:InfraGraphParser.QuantityLitContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#stringLit.
    def visitStringLit(self, ctx:InfraGraphParser.StringLitContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#boolLit.
    def visitBoolLit(self, ctx:InfraGraphParser.BoolLitContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#nameRef.
    def visitNameRef(self, ctx:InfraGraphParser.NameRefContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#linkCall.
    def visitLinkCall(self, ctx:InfraGraphParser.LinkCallContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#parenExpr.
    def visitParenExpr(self, ctx:InfraGraphParser.ParenExprContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#comprehension.
    def visitComprehension(self, ctx:InfraGraphParser.ComprehensionContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#listLit.
    def visitListLit(self, ctx:InfraGraphParser.ListLitContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#condExpr.
    def visitCondExpr(self, ctx:InfraGraphParser.CondExprContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#allIndex.
    def visitAllIndex(self, ctx:InfraGraphParser.AllIndexContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#sliceIndex.
    def visitSliceIndex(self, ctx:InfraGraphParser.SliceIndexContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#oneIndex.
    def visitOneIndex(self, ctx:InfraGraphParser.OneIndexContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#args.
    def visitArgs(self, ctx:InfraGraphParser.ArgsContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#arg.
    def visitArg(self, ctx:InfraGraphParser.ArgContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by InfraGraphParser#name.
    def visitName(self, ctx:InfraGraphParser.NameContext):
        return self.visitChildren(ctx)



del InfraGraphParser