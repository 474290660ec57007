# Generated from InfraGraph.g4 by ANTLR 4.13.2
# encoding: utf-8
from antlr4 import *
from io import StringIO
import sys
if sys.version_info[1] > 5:
	from typing import TextIO
else:
	from typing.io import TextIO

def serializedATN():
    return [
        4,1,64,466,2,0,7,0,2,1,7,1,2,2,7,2,2,3,7,3,2,4,7,4,2,5,7,5,2,6,7,
        6,2,7,7,7,2,8,7,8,2,9,7,9,2,10,7,10,2,11,7,11,2,12,7,12,2,13,7,13,
        2,14,7,14,2,15,7,15,2,16,7,16,2,17,7,17,2,18,7,18,2,19,7,19,2,20,
        7,20,2,21,7,21,2,22,7,22,2,23,7,23,2,24,7,24,2,25,7,25,2,26,7,26,
        2,27,7,27,2,28,7,28,2,29,7,29,2,30,7,30,2,31,7,31,2,32,7,32,2,33,
        7,33,1,0,3,0,70,8,0,1,0,5,0,73,8,0,10,0,12,0,76,9,0,1,0,1,0,1,1,
        1,1,1,1,1,2,1,2,1,2,1,2,1,2,1,2,1,2,1,2,3,2,91,8,2,1,3,1,3,1,3,3,
        3,96,8,3,1,3,1,3,3,3,100,8,3,1,3,3,3,103,8,3,1,4,1,4,1,4,5,4,108,
        8,4,10,4,12,4,111,9,4,1,5,1,5,1,5,1,5,1,5,1,5,3,5,119,8,5,1,5,3,
        5,122,8,5,1,6,1,6,1,6,3,6,127,8,6,1,6,1,6,1,7,1,7,1,7,3,7,134,8,
        7,1,7,1,7,1,7,1,7,1,7,1,7,1,7,3,7,143,8,7,3,7,145,8,7,1,8,1,8,1,
        8,1,8,1,8,1,8,3,8,153,8,8,1,9,1,9,1,9,1,9,1,10,1,10,1,10,1,10,5,
        10,163,8,10,10,10,12,10,166,9,10,1,10,3,10,169,8,10,3,10,171,8,10,
        1,10,1,10,1,11,1,11,1,11,1,11,1,11,3,11,180,8,11,1,12,1,12,1,13,
        1,13,3,13,186,8,13,1,13,5,13,189,8,13,10,13,12,13,192,9,13,1,13,
        1,13,1,14,1,14,1,14,1,14,1,14,1,14,1,14,1,14,1,14,1,14,1,14,3,14,
        207,8,14,1,15,1,15,1,15,1,15,1,15,3,15,214,8,15,1,16,1,16,1,16,1,
        16,3,16,220,8,16,1,16,3,16,223,8,16,1,17,1,17,1,17,1,17,1,17,1,17,
        1,18,1,18,1,18,1,18,1,18,1,18,3,18,237,8,18,3,18,239,8,18,1,19,1,
        19,1,19,1,19,1,19,1,19,3,19,247,8,19,1,19,1,19,1,19,3,19,252,8,19,
        1,19,3,19,255,8,19,1,20,1,20,1,20,1,20,1,20,1,20,3,20,263,8,20,1,
        20,1,20,1,20,3,20,268,8,20,1,20,3,20,271,8,20,1,21,1,21,5,21,275,
        8,21,10,21,12,21,278,9,21,1,21,1,21,1,22,1,22,1,22,1,22,1,22,5,22,
        287,8,22,10,22,12,22,290,9,22,1,22,3,22,293,8,22,1,23,1,23,1,23,
        1,23,1,24,1,24,1,24,1,24,3,24,303,8,24,1,24,3,24,306,8,24,1,25,1,
        25,1,25,1,25,3,25,312,8,25,1,25,1,25,3,25,316,8,25,1,25,3,25,319,
        8,25,1,26,1,26,1,27,1,27,1,27,1,27,3,27,327,8,27,1,28,1,28,1,28,
        1,28,1,28,1,28,3,28,335,8,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,
        1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,
        1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,1,28,3,28,
        369,8,28,1,28,5,28,372,8,28,10,28,12,28,375,9,28,1,29,1,29,1,29,
        1,29,1,29,1,29,1,29,1,29,1,29,3,29,386,8,29,1,29,1,29,1,29,1,29,
        1,29,1,29,1,29,1,29,1,29,1,29,1,29,1,29,1,29,3,29,401,8,29,1,29,
        1,29,1,29,1,29,1,29,1,29,5,29,409,8,29,10,29,12,29,412,9,29,1,29,
        3,29,415,8,29,3,29,417,8,29,1,29,1,29,1,29,1,29,1,29,1,29,1,29,1,
        29,3,29,427,8,29,1,30,1,30,3,30,431,8,30,1,30,1,30,3,30,435,8,30,
        1,30,1,30,3,30,439,8,30,3,30,441,8,30,1,30,3,30,444,8,30,1,31,1,
        31,1,31,5,31,449,8,31,10,31,12,31,452,9,31,1,31,3,31,455,8,31,1,
        32,1,32,1,32,3,32,460,8,32,1,32,1,32,1,33,1,33,1,33,0,1,56,34,0,
        2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,
        48,50,52,54,56,58,60,62,64,66,0,6,1,0,20,22,2,0,35,35,46,48,1,0,
        44,45,2,0,11,11,37,42,1,0,23,24,1,0,59,60,524,0,69,1,0,0,0,2,79,
        1,0,0,0,4,90,1,0,0,0,6,92,1,0,0,0,8,104,1,0,0,0,10,112,1,0,0,0,12,
        123,1,0,0,0,14,144,1,0,0,0,16,146,1,0,0,0,18,154,1,0,0,0,20,158,
        1,0,0,0,22,174,1,0,0,0,24,181,1,0,0,0,26,183,1,0,0,0,28,206,1,0,
        0,0,30,208,1,0,0,0,32,215,1,0,0,0,34,224,1,0,0,0,36,230,1,0,0,0,
        38,240,1,0,0,0,40,256,1,0,0,0,42,272,1,0,0,0,44,281,1,0,0,0,46,294,
        1,0,0,0,48,298,1,0,0,0,50,307,1,0,0,0,52,320,1,0,0,0,54,322,1,0,
        0,0,56,334,1,0,0,0,58,426,1,0,0,0,60,443,1,0,0,0,62,445,1,0,0,0,
        64,459,1,0,0,0,66,463,1,0,0,0,68,70,5,28,0,0,69,68,1,0,0,0,69,70,
        1,0,0,0,70,74,1,0,0,0,71,73,3,4,2,0,72,71,1,0,0,0,73,76,1,0,0,0,
        74,72,1,0,0,0,74,75,1,0,0,0,75,77,1,0,0,0,76,74,1,0,0,0,77,78,5,
        0,0,1,78,1,1,0,0,0,79,80,3,56,28,0,80,81,5,0,0,1,81,3,1,0,0,0,82,
        91,3,6,3,0,83,91,3,10,5,0,84,91,3,12,6,0,85,91,3,14,7,0,86,91,3,
        16,8,0,87,91,3,18,9,0,88,91,3,30,15,0,89,91,3,32,16,0,90,82,1,0,
        0,0,90,83,1,0,0,0,90,84,1,0,0,0,90,85,1,0,0,0,90,86,1,0,0,0,90,87,
        1,0,0,0,90,88,1,0,0,0,90,89,1,0,0,0,91,5,1,0,0,0,92,95,5,1,0,0,93,
        96,5,29,0,0,94,96,3,8,4,0,95,93,1,0,0,0,95,94,1,0,0,0,96,99,1,0,
        0,0,97,98,5,2,0,0,98,100,3,66,33,0,99,97,1,0,0,0,99,100,1,0,0,0,
        100,102,1,0,0,0,101,103,5,52,0,0,102,101,1,0,0,0,102,103,1,0,0,0,
        103,7,1,0,0,0,104,109,3,66,33,0,105,106,5,49,0,0,106,108,3,66,33,
        0,107,105,1,0,0,0,108,111,1,0,0,0,109,107,1,0,0,0,109,110,1,0,0,
        0,110,9,1,0,0,0,111,109,1,0,0,0,112,113,5,3,0,0,113,114,3,66,33,
        0,114,115,5,51,0,0,115,118,3,24,12,0,116,117,5,43,0,0,117,119,3,
        56,28,0,118,116,1,0,0,0,118,119,1,0,0,0,119,121,1,0,0,0,120,122,
        5,52,0,0,121,120,1,0,0,0,121,122,1,0,0,0,122,11,1,0,0,0,123,124,
        5,4,0,0,124,126,3,66,33,0,125,127,3,20,10,0,126,125,1,0,0,0,126,
        127,1,0,0,0,127,128,1,0,0,0,128,129,3,26,13,0,129,13,1,0,0,0,130,
        131,5,5,0,0,131,133,3,66,33,0,132,134,3,20,10,0,133,132,1,0,0,0,
        133,134,1,0,0,0,134,135,1,0,0,0,135,136,3,26,13,0,136,145,1,0,0,
        0,137,138,5,5,0,0,138,139,3,66,33,0,139,140,5,43,0,0,140,142,3,56,
        28,0,141,143,5,52,0,0,142,141,1,0,0,0,142,143,1,0,0,0,143,145,1,
        0,0,0,144,130,1,0,0,0,144,137,1,0,0,0,145,15,1,0,0,0,146,147,5,6,
        0,0,147,148,3,66,33,0,148,149,3,20,10,0,149,150,5,43,0,0,150,152,
        3,56,28,0,151,153,5,52,0,0,152,151,1,0,0,0,152,153,1,0,0,0,153,17,
        1,0,0,0,154,155,5,7,0,0,155,156,3,66,33,0,156,157,3,26,13,0,157,
        19,1,0,0,0,158,170,5,53,0,0,159,164,3,22,11,0,160,161,5,50,0,0,161,
        163,3,22,11,0,162,160,1,0,0,0,163,166,1,0,0,0,164,162,1,0,0,0,164,
        165,1,0,0,0,165,168,1,0,0,0,166,164,1,0,0,0,167,169,5,50,0,0,168,
        167,1,0,0,0,168,169,1,0,0,0,169,171,1,0,0,0,170,159,1,0,0,0,170,
        171,1,0,0,0,171,172,1,0,0,0,172,173,5,54,0,0,173,21,1,0,0,0,174,
        175,3,66,33,0,175,176,5,51,0,0,176,179,3,24,12,0,177,178,5,43,0,
        0,178,180,3,56,28,0,179,177,1,0,0,0,179,180,1,0,0,0,180,23,1,0,0,
        0,181,182,3,66,33,0,182,25,1,0,0,0,183,185,5,57,0,0,184,186,5,28,
        0,0,185,184,1,0,0,0,185,186,1,0,0,0,186,190,1,0,0,0,187,189,3,28,
        14,0,188,187,1,0,0,0,189,192,1,0,0,0,190,188,1,0,0,0,190,191,1,0,
        0,0,191,193,1,0,0,0,192,190,1,0,0,0,193,194,5,58,0,0,194,27,1,0,
        0,0,195,207,3,30,15,0,196,207,3,32,16,0,197,207,3,34,17,0,198,207,
        3,36,18,0,199,207,3,38,19,0,200,207,3,40,20,0,201,207,3,18,9,0,202,
        207,3,44,22,0,203,207,3,48,24,0,204,207,3,50,25,0,205,207,3,54,27,
        0,206,195,1,0,0,0,206,196,1,0,0,0,206,197,1,0,0,0,206,198,1,0,0,
        0,206,199,1,0,0,0,206,200,1,0,0,0,206,201,1,0,0,0,206,202,1,0,0,
        0,206,203,1,0,0,0,206,204,1,0,0,0,206,205,1,0,0,0,207,29,1,0,0,0,
        208,209,5,8,0,0,209,210,3,66,33,0,210,211,5,43,0,0,211,213,3,56,
        28,0,212,214,5,52,0,0,213,212,1,0,0,0,213,214,1,0,0,0,214,31,1,0,
        0,0,215,216,5,9,0,0,216,219,3,56,28,0,217,218,5,50,0,0,218,220,3,
        56,28,0,219,217,1,0,0,0,219,220,1,0,0,0,220,222,1,0,0,0,221,223,
        5,52,0,0,222,221,1,0,0,0,222,223,1,0,0,0,223,33,1,0,0,0,224,225,
        5,10,0,0,225,226,3,66,33,0,226,227,5,11,0,0,227,228,3,56,28,0,228,
        229,3,26,13,0,229,35,1,0,0,0,230,231,5,12,0,0,231,232,3,56,28,0,
        232,238,3,26,13,0,233,236,5,14,0,0,234,237,3,36,18,0,235,237,3,26,
        13,0,236,234,1,0,0,0,236,235,1,0,0,0,237,239,1,0,0,0,238,233,1,0,
        0,0,238,239,1,0,0,0,239,37,1,0,0,0,240,241,5,15,0,0,241,246,3,66,
        33,0,242,243,5,55,0,0,243,244,3,56,28,0,244,245,5,56,0,0,245,247,
        1,0,0,0,246,242,1,0,0,0,246,247,1,0,0,0,247,248,1,0,0,0,248,249,
        5,51,0,0,249,251,3,56,28,0,250,252,3,42,21,0,251,250,1,0,0,0,251,
        252,1,0,0,0,252,254,1,0,0,0,253,255,5,52,0,0,254,253,1,0,0,0,254,
        255,1,0,0,0,255,39,1,0,0,0,256,257,5,16,0,0,257,262,3,66,33,0,258,
        259,5,55,0,0,259,260,3,56,28,0,260,261,5,56,0,0,261,263,1,0,0,0,
        262,258,1,0,0,0,262,263,1,0,0,0,263,264,1,0,0,0,264,265,5,51,0,0,
        265,267,3,56,28,0,266,268,3,42,21,0,267,266,1,0,0,0,267,268,1,0,
        0,0,268,270,1,0,0,0,269,271,5,52,0,0,270,269,1,0,0,0,270,271,1,0,
        0,0,271,41,1,0,0,0,272,276,5,57,0,0,273,275,3,54,27,0,274,273,1,
        0,0,0,275,278,1,0,0,0,276,274,1,0,0,0,276,277,1,0,0,0,277,279,1,
        0,0,0,278,276,1,0,0,0,279,280,5,58,0,0,280,43,1,0,0,0,281,282,5,
        17,0,0,282,283,3,56,28,0,283,288,3,46,23,0,284,285,5,50,0,0,285,
        287,3,46,23,0,286,284,1,0,0,0,287,290,1,0,0,0,288,286,1,0,0,0,288,
        289,1,0,0,0,289,292,1,0,0,0,290,288,1,0,0,0,291,293,5,52,0,0,292,
        291,1,0,0,0,292,293,1,0,0,0,293,45,1,0,0,0,294,295,3,66,33,0,295,
        296,5,43,0,0,296,297,3,56,28,0,297,47,1,0,0,0,298,299,5,18,0,0,299,
        302,3,56,28,0,300,301,5,2,0,0,301,303,3,66,33,0,302,300,1,0,0,0,
        302,303,1,0,0,0,303,305,1,0,0,0,304,306,5,52,0,0,305,304,1,0,0,0,
        305,306,1,0,0,0,306,49,1,0,0,0,307,308,3,56,28,0,308,309,5,33,0,
        0,309,311,3,56,28,0,310,312,3,52,26,0,311,310,1,0,0,0,311,312,1,
        0,0,0,312,315,1,0,0,0,313,314,5,19,0,0,314,316,3,56,28,0,315,313,
        1,0,0,0,315,316,1,0,0,0,316,318,1,0,0,0,317,319,5,52,0,0,318,317,
        1,0,0,0,318,319,1,0,0,0,319,51,1,0,0,0,320,321,7,0,0,0,321,53,1,
        0,0,0,322,323,3,66,33,0,323,324,5,43,0,0,324,326,3,56,28,0,325,327,
        5,52,0,0,326,325,1,0,0,0,326,327,1,0,0,0,327,55,1,0,0,0,328,329,
        6,28,-1,0,329,335,3,58,29,0,330,331,5,45,0,0,331,335,3,56,28,8,332,
        333,5,27,0,0,333,335,3,56,28,3,334,328,1,0,0,0,334,330,1,0,0,0,334,
        332,1,0,0,0,335,373,1,0,0,0,336,337,10,9,0,0,337,338,5,36,0,0,338,
        372,3,56,28,9,339,340,10,7,0,0,340,341,7,1,0,0,341,372,3,56,28,8,
        342,343,10,6,0,0,343,344,7,2,0,0,344,372,3,56,28,7,345,346,10,5,
        0,0,346,347,5,34,0,0,347,372,3,56,28,6,348,349,10,4,0,0,349,350,
        7,3,0,0,350,372,3,56,28,5,351,352,10,2,0,0,352,353,5,25,0,0,353,
        372,3,56,28,3,354,355,10,1,0,0,355,356,5,26,0,0,356,372,3,56,28,
        2,357,358,10,12,0,0,358,359,5,49,0,0,359,372,3,66,33,0,360,361,10,
        11,0,0,361,362,5,55,0,0,362,363,3,60,30,0,363,364,5,56,0,0,364,372,
        1,0,0,0,365,366,10,10,0,0,366,368,5,53,0,0,367,369,3,62,31,0,368,
        367,1,0,0,0,368,369,1,0,0,0,369,370,1,0,0,0,370,372,5,54,0,0,371,
        336,1,0,0,0,371,339,1,0,0,0,371,342,1,0,0,0,371,345,1,0,0,0,371,
        348,1,0,0,0,371,351,1,0,0,0,371,354,1,0,0,0,371,357,1,0,0,0,371,
        360,1,0,0,0,371,365,1,0,0,0,372,375,1,0,0,0,373,371,1,0,0,0,373,
        374,1,0,0,0,374,57,1,0,0,0,375,373,1,0,0,0,376,427,5,32,0,0,377,
        427,5,31,0,0,378,427,5,30,0,0,379,427,5,29,0,0,380,427,7,4,0,0,381,
        427,3,66,33,0,382,383,5,7,0,0,383,385,5,53,0,0,384,386,3,62,31,0,
        385,384,1,0,0,0,385,386,1,0,0,0,386,387,1,0,0,0,387,427,5,54,0,0,
        388,389,5,53,0,0,389,390,3,56,28,0,390,391,5,54,0,0,391,427,1,0,
        0,0,392,393,5,55,0,0,393,394,3,56,28,0,394,395,5,10,0,0,395,396,
        3,66,33,0,396,397,5,11,0,0,397,400,3,56,28,0,398,399,5,12,0,0,399,
        401,3,56,28,0,400,398,1,0,0,0,400,401,1,0,0,0,401,402,1,0,0,0,402,
        403,5,56,0,0,403,427,1,0,0,0,404,416,5,55,0,0,405,410,3,56,28,0,
        406,407,5,50,0,0,407,409,3,56,28,0,408,406,1,0,0,0,409,412,1,0,0,
        0,410,408,1,0,0,0,410,411,1,0,0,0,411,414,1,0,0,0,412,410,1,0,0,
        0,413,415,5,50,0,0,414,413,1,0,0,0,414,415,1,0,0,0,415,417,1,0,0,
        0,416,405,1,0,0,0,416,417,1,0,0,0,417,418,1,0,0,0,418,427,5,56,0,
        0,419,420,5,12,0,0,420,421,3,56,28,0,421,422,5,13,0,0,422,423,3,
        56,28,0,423,424,5,14,0,0,424,425,3,56,28,0,425,427,1,0,0,0,426,376,
        1,0,0,0,426,377,1,0,0,0,426,378,1,0,0,0,426,379,1,0,0,0,426,380,
        1,0,0,0,426,381,1,0,0,0,426,382,1,0,0,0,426,388,1,0,0,0,426,392,
        1,0,0,0,426,404,1,0,0,0,426,419,1,0,0,0,427,59,1,0,0,0,428,444,5,
        46,0,0,429,431,3,56,28,0,430,429,1,0,0,0,430,431,1,0,0,0,431,432,
        1,0,0,0,432,434,5,51,0,0,433,435,3,56,28,0,434,433,1,0,0,0,434,435,
        1,0,0,0,435,440,1,0,0,0,436,438,5,51,0,0,437,439,3,56,28,0,438,437,
        1,0,0,0,438,439,1,0,0,0,439,441,1,0,0,0,440,436,1,0,0,0,440,441,
        1,0,0,0,441,444,1,0,0,0,442,444,3,56,28,0,443,428,1,0,0,0,443,430,
        1,0,0,0,443,442,1,0,0,0,444,61,1,0,0,0,445,450,3,64,32,0,446,447,
        5,50,0,0,447,449,3,64,32,0,448,446,1,0,0,0,449,452,1,0,0,0,450,448,
        1,0,0,0,450,451,1,0,0,0,451,454,1,0,0,0,452,450,1,0,0,0,453,455,
        5,50,0,0,454,453,1,0,0,0,454,455,1,0,0,0,455,63,1,0,0,0,456,457,
        3,66,33,0,457,458,5,43,0,0,458,460,1,0,0,0,459,456,1,0,0,0,459,460,
        1,0,0,0,460,461,1,0,0,0,461,462,3,56,28,0,462,65,1,0,0,0,463,464,
        7,5,0,0,464,67,1,0,0,0,59,69,74,90,95,99,102,109,118,121,126,133,
        142,144,152,164,168,170,179,185,190,206,213,219,222,236,238,246,
        251,254,262,267,270,276,288,292,302,305,311,315,318,326,334,368,
        371,373,385,400,410,414,416,426,430,434,438,440,443,450,454,459
    ]

class InfraGraphParser ( Parser ):

    grammarFileName = "InfraGraph.g4"

    atn = ATNDeserializer().deserialize(serializedATN())

    decisionsToDFA = [ DFA(ds, i) for i, ds in enumerate(atn.decisionToState) ]

    sharedContextCache = PredictionContextCache()

    literalNames = [ "<INVALID>", "'import'", "'as'", "'param'", "'device'", 
                     "'fabric'", "'fn'", "'link'", "'let'", "'assert'", 
                     "'for'", "'in'", "'if'", "'then'", "'else'", "'component'", 
                     "'instance'", "'annotate'", "'include'", "'via'", "'one2one'", 
                     "'many2many'", "'ring'", "'true'", "'false'", "'and'", 
                     "'or'", "'not'", "<INVALID>", "<INVALID>", "<INVALID>", 
                     "<INVALID>", "<INVALID>", "'--'", "'..'", "'//'", "'**'", 
                     "'<='", "'>='", "'=='", "'!='", "'<'", "'>'", "'='", 
                     "'+'", "'-'", "'*'", "'/'", "'%'", "'.'", "','", "':'", 
                     "';'", "'('", "')'", "'['", "']'", "'{'", "'}'" ]

    symbolicNames = [ "<INVALID>", "IMPORT", "AS", "PARAM", "DEVICE", "FABRIC", 
                      "FN", "LINK", "LET", "ASSERT", "FOR", "IN", "IF", 
                      "THEN", "ELSE", "COMPONENT", "INSTANCE", "ANNOTATE", 
                      "INCLUDE", "VIA", "ONE2ONE", "MANY2MANY", "RING", 
                      "TRUE", "FALSE", "AND", "OR", "NOT", "DOCSTRING", 
                      "STRING", "QUANTITY", "FLOAT", "INT", "EDGE", "DOTDOT", 
                      "DSLASH", "POW", "LE", "GE", "EQ", "NE", "LT", "GT", 
                      "ASSIGN", "PLUS", "MINUS", "STAR", "SLASH", "PERCENT", 
                      "DOT", "COMMA", "COLON", "SEMI", "LPAREN", "RPAREN", 
                      "LBRACK", "RBRACK", "LBRACE", "RBRACE", "IDENT", "QIDENT", 
                      "DOC_COMMENT", "COMMENT", "WS", "ERROR_CHAR" ]

    RULE_program = 0
    RULE_exprOnly = 1
    RULE_topItem = 2
    RULE_importDecl = 3
    RULE_dottedName = 4
    RULE_paramDecl = 5
    RULE_deviceDecl = 6
    RULE_fabricDecl = 7
    RULE_fnDecl = 8
    RULE_linkDecl = 9
    RULE_paramList = 10
    RULE_param = 11
    RULE_typeName = 12
    RULE_block = 13
    RULE_stmt = 14
    RULE_letStmt = 15
    RULE_assertStmt = 16
    RULE_forStmt = 17
    RULE_ifStmt = 18
    RULE_componentStmt = 19
    RULE_instanceStmt = 20
    RULE_attrBlock = 21
    RULE_annotateStmt = 22
    RULE_attr = 23
    RULE_includeStmt = 24
    RULE_edgeStmt = 25
    RULE_scheme = 26
    RULE_propStmt = 27
    RULE_expr = 28
    RULE_primary = 29
    RULE_index = 30
    RULE_args = 31
    RULE_arg = 32
    RULE_name = 33

    ruleNames =  [ "program", "exprOnly", "topItem", "importDecl", "dottedName", 
                   "paramDecl", "deviceDecl", "fabricDecl", "fnDecl", "linkDecl", 
                   "paramList", "param", "typeName", "block", "stmt", "letStmt", 
                   "assertStmt", "forStmt", "ifStmt", "componentStmt", "instanceStmt", 
                   "attrBlock", "annotateStmt", "attr", "includeStmt", "edgeStmt", 
                   "scheme", "propStmt", "expr", "primary", "index", "args", 
                   "arg", "name" ]

    EOF = Token.EOF
    IMPORT=1
    AS=2
    PARAM=3
    DEVICE=4
    FABRIC=5
    FN=6
    LINK=7
    LET=8
    ASSERT=9
    FOR=10
    IN=11
    IF=12
    THEN=13
    ELSE=14
    COMPONENT=15
    INSTANCE=16
    ANNOTATE=17
    INCLUDE=18
    VIA=19
    ONE2ONE=20
    MANY2MANY=21
    RING=22
    TRUE=23
    FALSE=24
    AND=25
    OR=26
    NOT=27
    DOCSTRING=28
    STRING=29
    QUANTITY=30
    FLOAT=31
    INT=32
    EDGE=33
    DOTDOT=34
    DSLASH=35
    POW=36
    LE=37
    GE=38
    EQ=39
    NE=40
    LT=41
    GT=42
    ASSIGN=43
    PLUS=44
    MINUS=45
    STAR=46
    SLASH=47
    PERCENT=48
    DOT=49
    COMMA=50
    COLON=51
    SEMI=52
    LPAREN=53
    RPAREN=54
    LBRACK=55
    RBRACK=56
    LBRACE=57
    RBRACE=58
    IDENT=59
    QIDENT=60
    DOC_COMMENT=61
    COMMENT=62
    WS=63
    ERROR_CHAR=64

    def __init__(self, input:TokenStream, output:TextIO = sys.stdout):
        super().__init__(input, output)
        self.checkVersion("4.13.2")
        self._interp = ParserATNSimulator(self, self.atn, self.decisionsToDFA, self.sharedContextCache)
        self._predicates = None




    class ProgramContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def EOF(self):
            return self.getToken(InfraGraphParser.EOF, 0)

        def DOCSTRING(self):
            return self.getToken(InfraGraphParser.DOCSTRING, 0)

        def topItem(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.TopItemContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.TopItemContext,i)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_program

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitProgram" ):
                return visitor.visitProgram(self)
            else:
                return visitor.visitChildren(self)




    def program(self):

        localctx = InfraGraphParser.ProgramContext(self, self._ctx, self.state)
        self.enterRule(localctx, 0, self.RULE_program)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 69
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==28:
                self.state = 68
                self.match(InfraGraphParser.DOCSTRING)


            self.state = 74
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            while (((_la) & ~0x3f) == 0 and ((1 << _la) & 1018) != 0):
                self.state = 71
                self.topItem()
                self.state = 76
                self._errHandler.sync(self)
                _la = self._input.LA(1)

            self.state = 77
            self.match(InfraGraphParser.EOF)
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ExprOnlyContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def EOF(self):
            return self.getToken(InfraGraphParser.EOF, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_exprOnly

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitExprOnly" ):
                return visitor.visitExprOnly(self)
            else:
                return visitor.visitChildren(self)




    def exprOnly(self):

        localctx = InfraGraphParser.ExprOnlyContext(self, self._ctx, self.state)
        self.enterRule(localctx, 2, self.RULE_exprOnly)
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 79
            self.expr(0)
            self.state = 80
            self.match(InfraGraphParser.EOF)
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class TopItemContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def importDecl(self):
            return self.getTypedRuleContext(InfraGraphParser.ImportDeclContext,0)


        def paramDecl(self):
            return self.getTypedRuleContext(InfraGraphParser.ParamDeclContext,0)


        def deviceDecl(self):
            return self.getTypedRuleContext(InfraGraphParser.DeviceDeclContext,0)


        def fabricDecl(self):
            return self.getTypedRuleContext(InfraGraphParser.FabricDeclContext,0)


        def fnDecl(self):
            return self.getTypedRuleContext(InfraGraphParser.FnDeclContext,0)


        def linkDecl(self):
            return self.getTypedRuleContext(InfraGraphParser.LinkDeclContext,0)


        def letStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.LetStmtContext,0)


        def assertStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.AssertStmtContext,0)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_topItem

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitTopItem" ):
                return visitor.visitTopItem(self)
            else:
                return visitor.visitChildren(self)




    def topItem(self):

        localctx = InfraGraphParser.TopItemContext(self, self._ctx, self.state)
        self.enterRule(localctx, 4, self.RULE_topItem)
        try:
            self.state = 90
            self._errHandler.sync(self)
            token = self._input.LA(1)
            if token in [1]:
                self.enterOuterAlt(localctx, 1)
                self.state = 82
                self.importDecl()
                pass
            elif token in [3]:
                self.enterOuterAlt(localctx, 2)
                self.state = 83
                self.paramDecl()
                pass
            elif token in [4]:
                self.enterOuterAlt(localctx, 3)
                self.state = 84
                self.deviceDecl()
                pass
            elif token in [5]:
                self.enterOuterAlt(localctx, 4)
                self.state = 85
                self.fabricDecl()
                pass
            elif token in [6]:
                self.enterOuterAlt(localctx, 5)
                self.state = 86
                self.fnDecl()
                pass
            elif token in [7]:
                self.enterOuterAlt(localctx, 6)
                self.state = 87
                self.linkDecl()
                pass
            elif token in [8]:
                self.enterOuterAlt(localctx, 7)
                self.state = 88
                self.letStmt()
                pass
            elif token in [9]:
                self.enterOuterAlt(localctx, 8)
                self.state = 89
                self.assertStmt()
                pass
            else:
                raise NoViableAltException(self)

        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ImportDeclContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def IMPORT(self):
            return self.getToken(InfraGraphParser.IMPORT, 0)

        def STRING(self):
            return self.getToken(InfraGraphParser.STRING, 0)

        def dottedName(self):
            return self.getTypedRuleContext(InfraGraphParser.DottedNameContext,0)


        def AS(self):
            return self.getToken(InfraGraphParser.AS, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_importDecl

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitImportDecl" ):
                return visitor.visitImportDecl(self)
            else:
                return visitor.visitChildren(self)




    def importDecl(self):

        localctx = InfraGraphParser.ImportDeclContext(self, self._ctx, self.state)
        self.enterRule(localctx, 6, self.RULE_importDecl)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 92
            self.match(InfraGraphParser.IMPORT)
            self.state = 95
            self._errHandler.sync(self)
            token = self._input.LA(1)
            if token in [29]:
                self.state = 93
                self.match(InfraGraphParser.STRING)
                pass
            elif token in [59, 60]:
                self.state = 94
                self.dottedName()
                pass
            else:
                raise NoViableAltException(self)

            self.state = 99
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==2:
                self.state = 97
                self.match(InfraGraphParser.AS)
                self.state = 98
                self.name()


            self.state = 102
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 101
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class DottedNameContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def name(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.NameContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.NameContext,i)


        def DOT(self, i:int=None):
            if i is None:
                return self.getTokens(InfraGraphParser.DOT)
            else:
                return self.getToken(InfraGraphParser.DOT, i)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_dottedName

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitDottedName" ):
                return visitor.visitDottedName(self)
            else:
                return visitor.visitChildren(self)




    def dottedName(self):

        localctx = InfraGraphParser.DottedNameContext(self, self._ctx, self.state)
        self.enterRule(localctx, 8, self.RULE_dottedName)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 104
            self.name()
            self.state = 109
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            while _la==49:
                self.state = 105
                self.match(InfraGraphParser.DOT)
                self.state = 106
                self.name()
                self.state = 111
                self._errHandler.sync(self)
                _la = self._input.LA(1)

        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ParamDeclContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def PARAM(self):
            return self.getToken(InfraGraphParser.PARAM, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def COLON(self):
            return self.getToken(InfraGraphParser.COLON, 0)

        def typeName(self):
            return self.getTypedRuleContext(InfraGraphParser.TypeNameContext,0)


        def ASSIGN(self):
            return self.getToken(InfraGraphParser.ASSIGN, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_paramDecl

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitParamDecl" ):
                return visitor.visitParamDecl(self)
            else:
                return visitor.visitChildren(self)




    def paramDecl(self):

        localctx = InfraGraphParser.ParamDeclContext(self, self._ctx, self.state)
        self.enterRule(localctx, 10, self.RULE_paramDecl)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 112
            self.match(InfraGraphParser.PARAM)
            self.state = 113
            self.name()
            self.state = 114
            self.match(InfraGraphParser.COLON)
            self.state = 115
            self.typeName()
            self.state = 118
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==43:
                self.state = 116
                self.match(InfraGraphParser.ASSIGN)
                self.state = 117
                self.expr(0)


            self.state = 121
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 120
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class DeviceDeclContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def DEVICE(self):
            return self.getToken(InfraGraphParser.DEVICE, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def block(self):
            return self.getTypedRuleContext(InfraGraphParser.BlockContext,0)


        def paramList(self):
            return self.getTypedRuleContext(InfraGraphParser.ParamListContext,0)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_deviceDecl

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitDeviceDecl" ):
                return visitor.visitDeviceDecl(self)
            else:
                return visitor.visitChildren(self)




    def deviceDecl(self):

        localctx = InfraGraphParser.DeviceDeclContext(self, self._ctx, self.state)
        self.enterRule(localctx, 12, self.RULE_deviceDecl)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 123
            self.match(InfraGraphParser.DEVICE)
            self.state = 124
            self.name()
            self.state = 126
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==53:
                self.state = 125
                self.paramList()


            self.state = 128
            self.block()
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class FabricDeclContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser


        def getRuleIndex(self):
            return InfraGraphParser.RULE_fabricDecl

     
        def copyFrom(self, ctx:ParserRuleContext):
            super().copyFrom(ctx)



    class FabricAliasContext(FabricDeclContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.FabricDeclContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def FABRIC(self):
            return self.getToken(InfraGraphParser.FABRIC, 0)
        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)

        def ASSIGN(self):
            return self.getToken(InfraGraphParser.ASSIGN, 0)
        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)

        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitFabricAlias" ):
                return visitor.visitFabricAlias(self)
            else:
                return visitor.visitChildren(self)


    class FabricBodyContext(FabricDeclContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.FabricDeclContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def FABRIC(self):
            return self.getToken(InfraGraphParser.FABRIC, 0)
        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)

        def block(self):
            return self.getTypedRuleContext(InfraGraphParser.BlockContext,0)

        def paramList(self):
            return self.getTypedRuleContext(InfraGraphParser.ParamListContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitFabricBody" ):
                return visitor.visitFabricBody(self)
            else:
                return visitor.visitChildren(self)



    def fabricDecl(self):

        localctx = InfraGraphParser.FabricDeclContext(self, self._ctx, self.state)
        self.enterRule(localctx, 14, self.RULE_fabricDecl)
        self._la = 0 # Token type
        try:
            self.state = 144
            self._errHandler.sync(self)
            la_ = self._interp.adaptivePredict(self._input,12,self._ctx)
            if la_ == 1:
                localctx = InfraGraphParser.FabricBodyContext(self, localctx)
                self.enterOuterAlt(localctx, 1)
                self.state = 130
                self.match(InfraGraphParser.FABRIC)
                self.state = 131
                self.name()
                self.state = 133
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==53:
                    self.state = 132
                    self.paramList()


                self.state = 135
                self.block()
                pass

            elif la_ == 2:
                localctx = InfraGraphParser.FabricAliasContext(self, localctx)
                self.enterOuterAlt(localctx, 2)
                self.state = 137
                self.match(InfraGraphParser.FABRIC)
                self.state = 138
                self.name()
                self.state = 139
                self.match(InfraGraphParser.ASSIGN)
                self.state = 140
                self.expr(0)
                self.state = 142
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==52:
                    self.state = 141
                    self.match(InfraGraphParser.SEMI)


                pass


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class FnDeclContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def FN(self):
            return self.getToken(InfraGraphParser.FN, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def paramList(self):
            return self.getTypedRuleContext(InfraGraphParser.ParamListContext,0)


        def ASSIGN(self):
            return self.getToken(InfraGraphParser.ASSIGN, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_fnDecl

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitFnDecl" ):
                return visitor.visitFnDecl(self)
            else:
                return visitor.visitChildren(self)




    def fnDecl(self):

        localctx = InfraGraphParser.FnDeclContext(self, self._ctx, self.state)
        self.enterRule(localctx, 16, self.RULE_fnDecl)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 146
            self.match(InfraGraphParser.FN)
            self.state = 147
            self.name()
            self.state = 148
            self.paramList()
            self.state = 149
            self.match(InfraGraphParser.ASSIGN)
            self.state = 150
            self.expr(0)
            self.state = 152
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 151
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class LinkDeclContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def LINK(self):
            return self.getToken(InfraGraphParser.LINK, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def block(self):
            return self.getTypedRuleContext(InfraGraphParser.BlockContext,0)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_linkDecl

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitLinkDecl" ):
                return visitor.visitLinkDecl(self)
            else:
                return visitor.visitChildren(self)




    def linkDecl(self):

        localctx = InfraGraphParser.LinkDeclContext(self, self._ctx, self.state)
        self.enterRule(localctx, 18, self.RULE_linkDecl)
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 154
            self.match(InfraGraphParser.LINK)
            self.state = 155
            self.name()
            self.state = 156
            self.block()
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ParamListContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def LPAREN(self):
            return self.getToken(InfraGraphParser.LPAREN, 0)

        def RPAREN(self):
            return self.getToken(InfraGraphParser.RPAREN, 0)

        def param(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ParamContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ParamContext,i)


        def COMMA(self, i:int=None):
            if i is None:
                return self.getTokens(InfraGraphParser.COMMA)
            else:
                return self.getToken(InfraGraphParser.COMMA, i)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_paramList

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitParamList" ):
                return visitor.visitParamList(self)
            else:
                return visitor.visitChildren(self)




    def paramList(self):

        localctx = InfraGraphParser.ParamListContext(self, self._ctx, self.state)
        self.enterRule(localctx, 20, self.RULE_paramList)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 158
            self.match(InfraGraphParser.LPAREN)
            self.state = 170
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==59 or _la==60:
                self.state = 159
                self.param()
                self.state = 164
                self._errHandler.sync(self)
                _alt = self._interp.adaptivePredict(self._input,14,self._ctx)
                while _alt!=2 and _alt!=ATN.INVALID_ALT_NUMBER:
                    if _alt==1:
                        self.state = 160
                        self.match(InfraGraphParser.COMMA)
                        self.state = 161
                        self.param() 
                    self.state = 166
                    self._errHandler.sync(self)
                    _alt = self._interp.adaptivePredict(self._input,14,self._ctx)

                self.state = 168
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==50:
                    self.state = 167
                    self.match(InfraGraphParser.COMMA)




            self.state = 172
            self.match(InfraGraphParser.RPAREN)
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ParamContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def COLON(self):
            return self.getToken(InfraGraphParser.COLON, 0)

        def typeName(self):
            return self.getTypedRuleContext(InfraGraphParser.TypeNameContext,0)


        def ASSIGN(self):
            return self.getToken(InfraGraphParser.ASSIGN, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_param

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitParam" ):
                return visitor.visitParam(self)
            else:
                return visitor.visitChildren(self)




    def param(self):

        localctx = InfraGraphParser.ParamContext(self, self._ctx, self.state)
        self.enterRule(localctx, 22, self.RULE_param)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 174
            self.name()
            self.state = 175
            self.match(InfraGraphParser.COLON)
            self.state = 176
            self.typeName()
            self.state = 179
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==43:
                self.state = 177
                self.match(InfraGraphParser.ASSIGN)
                self.state = 178
                self.expr(0)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class TypeNameContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_typeName

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitTypeName" ):
                return visitor.visitTypeName(self)
            else:
                return visitor.visitChildren(self)




    def typeName(self):

        localctx = InfraGraphParser.TypeNameContext(self, self._ctx, self.state)
        self.enterRule(localctx, 24, self.RULE_typeName)
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 181
            self.name()
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class BlockContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def LBRACE(self):
            return self.getToken(InfraGraphParser.LBRACE, 0)

        def RBRACE(self):
            return self.getToken(InfraGraphParser.RBRACE, 0)

        def DOCSTRING(self):
            return self.getToken(InfraGraphParser.DOCSTRING, 0)

        def stmt(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.StmtContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.StmtContext,i)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_block

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitBlock" ):
                return visitor.visitBlock(self)
            else:
                return visitor.visitChildren(self)




    def block(self):

        localctx = InfraGraphParser.BlockContext(self, self._ctx, self.state)
        self.enterRule(localctx, 26, self.RULE_block)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 183
            self.match(InfraGraphParser.LBRACE)
            self.state = 185
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==28:
                self.state = 184
                self.match(InfraGraphParser.DOCSTRING)


            self.state = 190
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            while (((_la) & ~0x3f) == 0 and ((1 << _la) & 1774453445769009024) != 0):
                self.state = 187
                self.stmt()
                self.state = 192
                self._errHandler.sync(self)
                _la = self._input.LA(1)

            self.state = 193
            self.match(InfraGraphParser.RBRACE)
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class StmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def letStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.LetStmtContext,0)


        def assertStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.AssertStmtContext,0)


        def forStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.ForStmtContext,0)


        def ifStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.IfStmtContext,0)


        def componentStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.ComponentStmtContext,0)


        def instanceStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.InstanceStmtContext,0)


        def linkDecl(self):
            return self.getTypedRuleContext(InfraGraphParser.LinkDeclContext,0)


        def annotateStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.AnnotateStmtContext,0)


        def includeStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.IncludeStmtContext,0)


        def edgeStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.EdgeStmtContext,0)


        def propStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.PropStmtContext,0)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_stmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitStmt" ):
                return visitor.visitStmt(self)
            else:
                return visitor.visitChildren(self)




    def stmt(self):

        localctx = InfraGraphParser.StmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 28, self.RULE_stmt)
        try:
            self.state = 206
            self._errHandler.sync(self)
            la_ = self._interp.adaptivePredict(self._input,20,self._ctx)
            if la_ == 1:
                self.enterOuterAlt(localctx, 1)
                self.state = 195
                self.letStmt()
                pass

            elif la_ == 2:
                self.enterOuterAlt(localctx, 2)
                self.state = 196
                self.assertStmt()
                pass

            elif la_ == 3:
                self.enterOuterAlt(localctx, 3)
                self.state = 197
                self.forStmt()
                pass

            elif la_ == 4:
                self.enterOuterAlt(localctx, 4)
                self.state = 198
                self.ifStmt()
                pass

            elif la_ == 5:
                self.enterOuterAlt(localctx, 5)
                self.state = 199
                self.componentStmt()
                pass

            elif la_ == 6:
                self.enterOuterAlt(localctx, 6)
                self.state = 200
                self.instanceStmt()
                pass

            elif la_ == 7:
                self.enterOuterAlt(localctx, 7)
                self.state = 201
                self.linkDecl()
                pass

            elif la_ == 8:
                self.enterOuterAlt(localctx, 8)
                self.state = 202
                self.annotateStmt()
                pass

            elif la_ == 9:
                self.enterOuterAlt(localctx, 9)
                self.state = 203
                self.includeStmt()
                pass

            elif la_ == 10:
                self.enterOuterAlt(localctx, 10)
                self.state = 204
                self.edgeStmt()
                pass

            elif la_ == 11:
                self.enterOuterAlt(localctx, 11)
                self.state = 205
                self.propStmt()
                pass


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class LetStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def LET(self):
            return self.getToken(InfraGraphParser.LET, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def ASSIGN(self):
            return self.getToken(InfraGraphParser.ASSIGN, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_letStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitLetStmt" ):
                return visitor.visitLetStmt(self)
            else:
                return visitor.visitChildren(self)




    def letStmt(self):

        localctx = InfraGraphParser.LetStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 30, self.RULE_letStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 208
            self.match(InfraGraphParser.LET)
            self.state = 209
            self.name()
            self.state = 210
            self.match(InfraGraphParser.ASSIGN)
            self.state = 211
            self.expr(0)
            self.state = 213
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 212
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class AssertStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def ASSERT(self):
            return self.getToken(InfraGraphParser.ASSERT, 0)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)


        def COMMA(self):
            return self.getToken(InfraGraphParser.COMMA, 0)

        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_assertStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitAssertStmt" ):
                return visitor.visitAssertStmt(self)
            else:
                return visitor.visitChildren(self)




    def assertStmt(self):

        localctx = InfraGraphParser.AssertStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 32, self.RULE_assertStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 215
            self.match(InfraGraphParser.ASSERT)
            self.state = 216
            self.expr(0)
            self.state = 219
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==50:
                self.state = 217
                self.match(InfraGraphParser.COMMA)
                self.state = 218
                self.expr(0)


            self.state = 222
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 221
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ForStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def FOR(self):
            return self.getToken(InfraGraphParser.FOR, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def IN(self):
            return self.getToken(InfraGraphParser.IN, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def block(self):
            return self.getTypedRuleContext(InfraGraphParser.BlockContext,0)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_forStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitForStmt" ):
                return visitor.visitForStmt(self)
            else:
                return visitor.visitChildren(self)




    def forStmt(self):

        localctx = InfraGraphParser.ForStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 34, self.RULE_forStmt)
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 224
            self.match(InfraGraphParser.FOR)
            self.state = 225
            self.name()
            self.state = 226
            self.match(InfraGraphParser.IN)
            self.state = 227
            self.expr(0)
            self.state = 228
            self.block()
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class IfStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def IF(self):
            return self.getToken(InfraGraphParser.IF, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def block(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.BlockContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.BlockContext,i)


        def ELSE(self):
            return self.getToken(InfraGraphParser.ELSE, 0)

        def ifStmt(self):
            return self.getTypedRuleContext(InfraGraphParser.IfStmtContext,0)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_ifStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitIfStmt" ):
                return visitor.visitIfStmt(self)
            else:
                return visitor.visitChildren(self)




    def ifStmt(self):

        localctx = InfraGraphParser.IfStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 36, self.RULE_ifStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 230
            self.match(InfraGraphParser.IF)
            self.state = 231
            self.expr(0)
            self.state = 232
            self.block()
            self.state = 238
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==14:
                self.state = 233
                self.match(InfraGraphParser.ELSE)
                self.state = 236
                self._errHandler.sync(self)
                token = self._input.LA(1)
                if token in [12]:
                    self.state = 234
                    self.ifStmt()
                    pass
                elif token in [57]:
                    self.state = 235
                    self.block()
                    pass
                else:
                    raise NoViableAltException(self)



        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ComponentStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def COMPONENT(self):
            return self.getToken(InfraGraphParser.COMPONENT, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def COLON(self):
            return self.getToken(InfraGraphParser.COLON, 0)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)


        def LBRACK(self):
            return self.getToken(InfraGraphParser.LBRACK, 0)

        def RBRACK(self):
            return self.getToken(InfraGraphParser.RBRACK, 0)

        def attrBlock(self):
            return self.getTypedRuleContext(InfraGraphParser.AttrBlockContext,0)


        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_componentStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitComponentStmt" ):
                return visitor.visitComponentStmt(self)
            else:
                return visitor.visitChildren(self)




    def componentStmt(self):

        localctx = InfraGraphParser.ComponentStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 38, self.RULE_componentStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 240
            self.match(InfraGraphParser.COMPONENT)
            self.state = 241
            self.name()
            self.state = 246
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==55:
                self.state = 242
                self.match(InfraGraphParser.LBRACK)
                self.state = 243
                self.expr(0)
                self.state = 244
                self.match(InfraGraphParser.RBRACK)


            self.state = 248
            self.match(InfraGraphParser.COLON)
            self.state = 249
            self.expr(0)
            self.state = 251
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==57:
                self.state = 250
                self.attrBlock()


            self.state = 254
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 253
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class InstanceStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def INSTANCE(self):
            return self.getToken(InfraGraphParser.INSTANCE, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def COLON(self):
            return self.getToken(InfraGraphParser.COLON, 0)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)


        def LBRACK(self):
            return self.getToken(InfraGraphParser.LBRACK, 0)

        def RBRACK(self):
            return self.getToken(InfraGraphParser.RBRACK, 0)

        def attrBlock(self):
            return self.getTypedRuleContext(InfraGraphParser.AttrBlockContext,0)


        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_instanceStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitInstanceStmt" ):
                return visitor.visitInstanceStmt(self)
            else:
                return visitor.visitChildren(self)




    def instanceStmt(self):

        localctx = InfraGraphParser.InstanceStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 40, self.RULE_instanceStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 256
            self.match(InfraGraphParser.INSTANCE)
            self.state = 257
            self.name()
            self.state = 262
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==55:
                self.state = 258
                self.match(InfraGraphParser.LBRACK)
                self.state = 259
                self.expr(0)
                self.state = 260
                self.match(InfraGraphParser.RBRACK)


            self.state = 264
            self.match(InfraGraphParser.COLON)
            self.state = 265
            self.expr(0)
            self.state = 267
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==57:
                self.state = 266
                self.attrBlock()


            self.state = 270
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 269
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class AttrBlockContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def LBRACE(self):
            return self.getToken(InfraGraphParser.LBRACE, 0)

        def RBRACE(self):
            return self.getToken(InfraGraphParser.RBRACE, 0)

        def propStmt(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.PropStmtContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.PropStmtContext,i)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_attrBlock

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitAttrBlock" ):
                return visitor.visitAttrBlock(self)
            else:
                return visitor.visitChildren(self)




    def attrBlock(self):

        localctx = InfraGraphParser.AttrBlockContext(self, self._ctx, self.state)
        self.enterRule(localctx, 42, self.RULE_attrBlock)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 272
            self.match(InfraGraphParser.LBRACE)
            self.state = 276
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            while _la==59 or _la==60:
                self.state = 273
                self.propStmt()
                self.state = 278
                self._errHandler.sync(self)
                _la = self._input.LA(1)

            self.state = 279
            self.match(InfraGraphParser.RBRACE)
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class AnnotateStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def ANNOTATE(self):
            return self.getToken(InfraGraphParser.ANNOTATE, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def attr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.AttrContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.AttrContext,i)


        def COMMA(self, i:int=None):
            if i is None:
                return self.getTokens(InfraGraphParser.COMMA)
            else:
                return self.getToken(InfraGraphParser.COMMA, i)

        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_annotateStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitAnnotateStmt" ):
                return visitor.visitAnnotateStmt(self)
            else:
                return visitor.visitChildren(self)




    def annotateStmt(self):

        localctx = InfraGraphParser.AnnotateStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 44, self.RULE_annotateStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 281
            self.match(InfraGraphParser.ANNOTATE)
            self.state = 282
            self.expr(0)
            self.state = 283
            self.attr()
            self.state = 288
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            while _la==50:
                self.state = 284
                self.match(InfraGraphParser.COMMA)
                self.state = 285
                self.attr()
                self.state = 290
                self._errHandler.sync(self)
                _la = self._input.LA(1)

            self.state = 292
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 291
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class AttrContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def ASSIGN(self):
            return self.getToken(InfraGraphParser.ASSIGN, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def getRuleIndex(self):
            return InfraGraphParser.RULE_attr

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitAttr" ):
                return visitor.visitAttr(self)
            else:
                return visitor.visitChildren(self)




    def attr(self):

        localctx = InfraGraphParser.AttrContext(self, self._ctx, self.state)
        self.enterRule(localctx, 46, self.RULE_attr)
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 294
            self.name()
            self.state = 295
            self.match(InfraGraphParser.ASSIGN)
            self.state = 296
            self.expr(0)
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class IncludeStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def INCLUDE(self):
            return self.getToken(InfraGraphParser.INCLUDE, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def AS(self):
            return self.getToken(InfraGraphParser.AS, 0)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_includeStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitIncludeStmt" ):
                return visitor.visitIncludeStmt(self)
            else:
                return visitor.visitChildren(self)




    def includeStmt(self):

        localctx = InfraGraphParser.IncludeStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 48, self.RULE_includeStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 298
            self.match(InfraGraphParser.INCLUDE)
            self.state = 299
            self.expr(0)
            self.state = 302
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==2:
                self.state = 300
                self.match(InfraGraphParser.AS)
                self.state = 301
                self.name()


            self.state = 305
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 304
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class EdgeStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)


        def EDGE(self):
            return self.getToken(InfraGraphParser.EDGE, 0)

        def scheme(self):
            return self.getTypedRuleContext(InfraGraphParser.SchemeContext,0)


        def VIA(self):
            return self.getToken(InfraGraphParser.VIA, 0)

        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_edgeStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitEdgeStmt" ):
                return visitor.visitEdgeStmt(self)
            else:
                return visitor.visitChildren(self)




    def edgeStmt(self):

        localctx = InfraGraphParser.EdgeStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 50, self.RULE_edgeStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 307
            self.expr(0)
            self.state = 308
            self.match(InfraGraphParser.EDGE)
            self.state = 309
            self.expr(0)
            self.state = 311
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if (((_la) & ~0x3f) == 0 and ((1 << _la) & 7340032) != 0):
                self.state = 310
                self.scheme()


            self.state = 315
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==19:
                self.state = 313
                self.match(InfraGraphParser.VIA)
                self.state = 314
                self.expr(0)


            self.state = 318
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 317
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class SchemeContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def ONE2ONE(self):
            return self.getToken(InfraGraphParser.ONE2ONE, 0)

        def MANY2MANY(self):
            return self.getToken(InfraGraphParser.MANY2MANY, 0)

        def RING(self):
            return self.getToken(InfraGraphParser.RING, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_scheme

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitScheme" ):
                return visitor.visitScheme(self)
            else:
                return visitor.visitChildren(self)




    def scheme(self):

        localctx = InfraGraphParser.SchemeContext(self, self._ctx, self.state)
        self.enterRule(localctx, 52, self.RULE_scheme)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 320
            _la = self._input.LA(1)
            if not((((_la) & ~0x3f) == 0 and ((1 << _la) & 7340032) != 0)):
                self._errHandler.recoverInline(self)
            else:
                self._errHandler.reportMatch(self)
                self.consume()
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class PropStmtContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def ASSIGN(self):
            return self.getToken(InfraGraphParser.ASSIGN, 0)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def SEMI(self):
            return self.getToken(InfraGraphParser.SEMI, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_propStmt

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitPropStmt" ):
                return visitor.visitPropStmt(self)
            else:
                return visitor.visitChildren(self)




    def propStmt(self):

        localctx = InfraGraphParser.PropStmtContext(self, self._ctx, self.state)
        self.enterRule(localctx, 54, self.RULE_propStmt)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 322
            self.name()
            self.state = 323
            self.match(InfraGraphParser.ASSIGN)
            self.state = 324
            self.expr(0)
            self.state = 326
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==52:
                self.state = 325
                self.match(InfraGraphParser.SEMI)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ExprContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser


        def getRuleIndex(self):
            return InfraGraphParser.RULE_expr

     
        def copyFrom(self, ctx:ParserRuleContext):
            super().copyFrom(ctx)


    class MemberExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)

        def DOT(self):
            return self.getToken(InfraGraphParser.DOT, 0)
        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitMemberExpr" ):
                return visitor.visitMemberExpr(self)
            else:
                return visitor.visitChildren(self)


    class OrExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def OR(self):
            return self.getToken(InfraGraphParser.OR, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitOrExpr" ):
                return visitor.visitOrExpr(self)
            else:
                return visitor.visitChildren(self)


    class CmpExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.op = None # Token
            self.copyFrom(ctx)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def LT(self):
            return self.getToken(InfraGraphParser.LT, 0)
        def LE(self):
            return self.getToken(InfraGraphParser.LE, 0)
        def GT(self):
            return self.getToken(InfraGraphParser.GT, 0)
        def GE(self):
            return self.getToken(InfraGraphParser.GE, 0)
        def EQ(self):
            return self.getToken(InfraGraphParser.EQ, 0)
        def NE(self):
            return self.getToken(InfraGraphParser.NE, 0)
        def IN(self):
            return self.getToken(InfraGraphParser.IN, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitCmpExpr" ):
                return visitor.visitCmpExpr(self)
            else:
                return visitor.visitChildren(self)


    class IndexExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)

        def LBRACK(self):
            return self.getToken(InfraGraphParser.LBRACK, 0)
        def index(self):
            return self.getTypedRuleContext(InfraGraphParser.IndexContext,0)

        def RBRACK(self):
            return self.getToken(InfraGraphParser.RBRACK, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitIndexExpr" ):
                return visitor.visitIndexExpr(self)
            else:
                return visitor.visitChildren(self)


    class NotExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def NOT(self):
            return self.getToken(InfraGraphParser.NOT, 0)
        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitNotExpr" ):
                return visitor.visitNotExpr(self)
            else:
                return visitor.visitChildren(self)


    class PrimaryExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def primary(self):
            return self.getTypedRuleContext(InfraGraphParser.PrimaryContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitPrimaryExpr" ):
                return visitor.visitPrimaryExpr(self)
            else:
                return visitor.visitChildren(self)


    class AddExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.op = None # Token
            self.copyFrom(ctx)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def PLUS(self):
            return self.getToken(InfraGraphParser.PLUS, 0)
        def MINUS(self):
            return self.getToken(InfraGraphParser.MINUS, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitAddExpr" ):
                return visitor.visitAddExpr(self)
            else:
                return visitor.visitChildren(self)


    class NegExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def MINUS(self):
            return self.getToken(InfraGraphParser.MINUS, 0)
        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitNegExpr" ):
                return visitor.visitNegExpr(self)
            else:
                return visitor.visitChildren(self)


    class MulExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.op = None # Token
            self.copyFrom(ctx)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def STAR(self):
            return self.getToken(InfraGraphParser.STAR, 0)
        def SLASH(self):
            return self.getToken(InfraGraphParser.SLASH, 0)
        def DSLASH(self):
            return self.getToken(InfraGraphParser.DSLASH, 0)
        def PERCENT(self):
            return self.getToken(InfraGraphParser.PERCENT, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitMulExpr" ):
                return visitor.visitMulExpr(self)
            else:
                return visitor.visitChildren(self)


    class PowExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def POW(self):
            return self.getToken(InfraGraphParser.POW, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitPowExpr" ):
                return visitor.visitPowExpr(self)
            else:
                return visitor.visitChildren(self)


    class CallExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)

        def LPAREN(self):
            return self.getToken(InfraGraphParser.LPAREN, 0)
        def RPAREN(self):
            return self.getToken(InfraGraphParser.RPAREN, 0)
        def args(self):
            return self.getTypedRuleContext(InfraGraphParser.ArgsContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitCallExpr" ):
                return visitor.visitCallExpr(self)
            else:
                return visitor.visitChildren(self)


    class RangeExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def DOTDOT(self):
            return self.getToken(InfraGraphParser.DOTDOT, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitRangeExpr" ):
                return visitor.visitRangeExpr(self)
            else:
                return visitor.visitChildren(self)


    class AndExprContext(ExprContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.ExprContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def AND(self):
            return self.getToken(InfraGraphParser.AND, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitAndExpr" ):
                return visitor.visitAndExpr(self)
            else:
                return visitor.visitChildren(self)



    def expr(self, _p:int=0):
        _parentctx = self._ctx
        _parentState = self.state
        localctx = InfraGraphParser.ExprContext(self, self._ctx, _parentState)
        _prevctx = localctx
        _startState = 56
        self.enterRecursionRule(localctx, 56, self.RULE_expr, _p)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 334
            self._errHandler.sync(self)
            token = self._input.LA(1)
            if token in [7, 12, 23, 24, 29, 30, 31, 32, 53, 55, 59, 60]:
                localctx = InfraGraphParser.PrimaryExprContext(self, localctx)
                self._ctx = localctx
                _prevctx = localctx

                self.state = 329
                self.primary()
                pass
            elif token in [45]:
                localctx = InfraGraphParser.NegExprContext(self, localctx)
                self._ctx = localctx
                _prevctx = localctx
                self.state = 330
                self.match(InfraGraphParser.MINUS)
                self.state = 331
                self.expr(8)
                pass
            elif token in [27]:
                localctx = InfraGraphParser.NotExprContext(self, localctx)
                self._ctx = localctx
                _prevctx = localctx
                self.state = 332
                self.match(InfraGraphParser.NOT)
                self.state = 333
                self.expr(3)
                pass
            else:
                raise NoViableAltException(self)

            self._ctx.stop = self._input.LT(-1)
            self.state = 373
            self._errHandler.sync(self)
            _alt = self._interp.adaptivePredict(self._input,44,self._ctx)
            while _alt!=2 and _alt!=ATN.INVALID_ALT_NUMBER:
                if _alt==1:
                    if self._parseListeners is not None:
                        self.triggerExitRuleEvent()
                    _prevctx = localctx
                    self.state = 371
                    self._errHandler.sync(self)
                    la_ = self._interp.adaptivePredict(self._input,43,self._ctx)
                    if la_ == 1:
                        localctx = InfraGraphParser.PowExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 336
                        if not self.precpred(self._ctx, 9):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 9)")
                        self.state = 337
                        self.match(InfraGraphParser.POW)
                        self.state = 338
                        self.expr(9)
                        pass

                    elif la_ == 2:
                        localctx = InfraGraphParser.MulExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 339
                        if not self.precpred(self._ctx, 7):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 7)")
                        self.state = 340
                        localctx.op = self._input.LT(1)
                        _la = self._input.LA(1)
                        if not((((_la) & ~0x3f) == 0 and ((1 << _la) & 492615568982016) != 0)):
                            localctx.op = self._errHandler.recoverInline(self)
                        else:
                            self._errHandler.reportMatch(self)
                            self.consume()
                        self.state = 341
                        self.expr(8)
                        pass

                    elif la_ == 3:
                        localctx = InfraGraphParser.AddExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 342
                        if not self.precpred(self._ctx, 6):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 6)")
                        self.state = 343
                        localctx.op = self._input.LT(1)
                        _la = self._input.LA(1)
                        if not(_la==44 or _la==45):
                            localctx.op = self._errHandler.recoverInline(self)
                        else:
                            self._errHandler.reportMatch(self)
                            self.consume()
                        self.state = 344
                        self.expr(7)
                        pass

                    elif la_ == 4:
                        localctx = InfraGraphParser.RangeExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 345
                        if not self.precpred(self._ctx, 5):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 5)")
                        self.state = 346
                        self.match(InfraGraphParser.DOTDOT)
                        self.state = 347
                        self.expr(6)
                        pass

                    elif la_ == 5:
                        localctx = InfraGraphParser.CmpExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 348
                        if not self.precpred(self._ctx, 4):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 4)")
                        self.state = 349
                        localctx.op = self._input.LT(1)
                        _la = self._input.LA(1)
                        if not((((_la) & ~0x3f) == 0 and ((1 << _la) & 8658654070784) != 0)):
                            localctx.op = self._errHandler.recoverInline(self)
                        else:
                            self._errHandler.reportMatch(self)
                            self.consume()
                        self.state = 350
                        self.expr(5)
                        pass

                    elif la_ == 6:
                        localctx = InfraGraphParser.AndExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 351
                        if not self.precpred(self._ctx, 2):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 2)")
                        self.state = 352
                        self.match(InfraGraphParser.AND)
                        self.state = 353
                        self.expr(3)
                        pass

                    elif la_ == 7:
                        localctx = InfraGraphParser.OrExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 354
                        if not self.precpred(self._ctx, 1):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 1)")
                        self.state = 355
                        self.match(InfraGraphParser.OR)
                        self.state = 356
                        self.expr(2)
                        pass

                    elif la_ == 8:
                        localctx = InfraGraphParser.MemberExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 357
                        if not self.precpred(self._ctx, 12):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 12)")
                        self.state = 358
                        self.match(InfraGraphParser.DOT)
                        self.state = 359
                        self.name()
                        pass

                    elif la_ == 9:
                        localctx = InfraGraphParser.IndexExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 360
                        if not self.precpred(self._ctx, 11):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 11)")
                        self.state = 361
                        self.match(InfraGraphParser.LBRACK)
                        self.state = 362
                        self.index()
                        self.state = 363
                        self.match(InfraGraphParser.RBRACK)
                        pass

                    elif la_ == 10:
                        localctx = InfraGraphParser.CallExprContext(self, InfraGraphParser.ExprContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_expr)
                        self.state = 365
                        if not self.precpred(self._ctx, 10):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 10)")
                        self.state = 366
                        self.match(InfraGraphParser.LPAREN)
                        self.state = 368
                        self._errHandler.sync(self)
                        _la = self._input.LA(1)
                        if (((_la) & ~0x3f) == 0 and ((1 << _la) & 1774453445768515712) != 0):
                            self.state = 367
                            self.args()


                        self.state = 370
                        self.match(InfraGraphParser.RPAREN)
                        pass

             
                self.state = 375
                self._errHandler.sync(self)
                _alt = self._interp.adaptivePredict(self._input,44,self._ctx)

        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.unrollRecursionContexts(_parentctx)
        return localctx


    class PrimaryContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser


        def getRuleIndex(self):
            return InfraGraphParser.RULE_primary

     
        def copyFrom(self, ctx:ParserRuleContext):
            super().copyFrom(ctx)



    class QuantityLitContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def QUANTITY(self):
            return self.getToken(InfraGraphParser.QUANTITY, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitQuantityLit" ):
                return visitor.visitQuantityLit(self)
            else:
                return visitor.visitChildren(self)


    class StringLitContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def STRING(self):
            return self.getToken(InfraGraphParser.STRING, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitStringLit" ):
                return visitor.visitStringLit(self)
            else:
                return visitor.visitChildren(self)


    class ListLitContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def LBRACK(self):
            return self.getToken(InfraGraphParser.LBRACK, 0)
        def RBRACK(self):
            return self.getToken(InfraGraphParser.RBRACK, 0)
        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def COMMA(self, i:int=None):
            if i is None:
                return self.getTokens(InfraGraphParser.COMMA)
            else:
                return self.getToken(InfraGraphParser.COMMA, i)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitListLit" ):
                return visitor.visitListLit(self)
            else:
                return visitor.visitChildren(self)


    class FloatLitContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def FLOAT(self):
            return self.getToken(InfraGraphParser.FLOAT, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitFloatLit" ):
                return visitor.visitFloatLit(self)
            else:
                return visitor.visitChildren(self)


    class BoolLitContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def TRUE(self):
            return self.getToken(InfraGraphParser.TRUE, 0)
        def FALSE(self):
            return self.getToken(InfraGraphParser.FALSE, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitBoolLit" ):
                return visitor.visitBoolLit(self)
            else:
                return visitor.visitChildren(self)


    class IntLitContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def INT(self):
            return self.getToken(InfraGraphParser.INT, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitIntLit" ):
                return visitor.visitIntLit(self)
            else:
                return visitor.visitChildren(self)


    class CondExprContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def IF(self):
            return self.getToken(InfraGraphParser.IF, 0)
        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def THEN(self):
            return self.getToken(InfraGraphParser.THEN, 0)
        def ELSE(self):
            return self.getToken(InfraGraphParser.ELSE, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitCondExpr" ):
                return visitor.visitCondExpr(self)
            else:
                return visitor.visitChildren(self)


    class NameRefContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitNameRef" ):
                return visitor.visitNameRef(self)
            else:
                return visitor.visitChildren(self)


    class ComprehensionContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def LBRACK(self):
            return self.getToken(InfraGraphParser.LBRACK, 0)
        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)

        def FOR(self):
            return self.getToken(InfraGraphParser.FOR, 0)
        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)

        def IN(self):
            return self.getToken(InfraGraphParser.IN, 0)
        def RBRACK(self):
            return self.getToken(InfraGraphParser.RBRACK, 0)
        def IF(self):
            return self.getToken(InfraGraphParser.IF, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitComprehension" ):
                return visitor.visitComprehension(self)
            else:
                return visitor.visitChildren(self)


    class LinkCallContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def LINK(self):
            return self.getToken(InfraGraphParser.LINK, 0)
        def LPAREN(self):
            return self.getToken(InfraGraphParser.LPAREN, 0)
        def RPAREN(self):
            return self.getToken(InfraGraphParser.RPAREN, 0)
        def args(self):
            return self.getTypedRuleContext(InfraGraphParser.ArgsContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitLinkCall" ):
                return visitor.visitLinkCall(self)
            else:
                return visitor.visitChildren(self)


    class ParenExprContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def LPAREN(self):
            return self.getToken(InfraGraphParser.LPAREN, 0)
        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)

        def RPAREN(self):
            return self.getToken(InfraGraphParser.RPAREN, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitParenExpr" ):
                return visitor.visitParenExpr(self)
            else:
                return visitor.visitChildren(self)



    def primary(self):

        localctx = InfraGraphParser.PrimaryContext(self, self._ctx, self.state)
        self.enterRule(localctx, 58, self.RULE_primary)
        self._la = 0 # Token type
        try:
            self.state = 426
            self._errHandler.sync(self)
            la_ = self._interp.adaptivePredict(self._input,50,self._ctx)
            if la_ == 1:
                localctx = InfraGraphParser.IntLitContext(self, localctx)
                self.enterOuterAlt(localctx, 1)
                self.state = 376
                self.match(InfraGraphParser.INT)
                pass

            elif la_ == 2:
                localctx = InfraGraphParser.FloatLitContext(self, localctx)
                self.enterOuterAlt(localctx, 2)
                self.state = 377
                self.match(InfraGraphParser.FLOAT)
                pass

            elif la_ == 3:
                localctx = InfraGraphParser.QuantityLitContext(self, localctx)
                self.enterOuterAlt(localctx, 3)
                self.state = 378
                self.match(InfraGraphParser.QUANTITY)
                pass

            elif la_ == 4:
                localctx = InfraGraphParser.StringLitContext(self, localctx)
                self.enterOuterAlt(localctx, 4)
                self.state = 379
                self.match(InfraGraphParser.STRING)
                pass

            elif la_ == 5:
                localctx = InfraGraphParser.BoolLitContext(self, localctx)
                self.enterOuterAlt(localctx, 5)
                self.state = 380
                _la = self._input.LA(1)
                if not(_la==23 or _la==24):
                    self._errHandler.recoverInline(self)
                else:
                    self._errHandler.reportMatch(self)
                    self.consume()
                pass

            elif la_ == 6:
                localctx = InfraGraphParser.NameRefContext(self, localctx)
                self.enterOuterAlt(localctx, 6)
                self.state = 381
                self.name()
                pass

            elif la_ == 7:
                localctx = InfraGraphParser.LinkCallContext(self, localctx)
                self.enterOuterAlt(localctx, 7)
                self.state = 382
                self.match(InfraGraphParser.LINK)
                self.state = 383
                self.match(InfraGraphParser.LPAREN)
                self.state = 385
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if (((_la) & ~0x3f) == 0 and ((1 << _la) & 1774453445768515712) != 0):
                    self.state = 384
                    self.args()


                self.state = 387
                self.match(InfraGraphParser.RPAREN)
                pass

            elif la_ == 8:
                localctx = InfraGraphParser.ParenExprContext(self, localctx)
                self.enterOuterAlt(localctx, 8)
                self.state = 388
                self.match(InfraGraphParser.LPAREN)
                self.state = 389
                self.expr(0)
                self.state = 390
                self.match(InfraGraphParser.RPAREN)
                pass

            elif la_ == 9:
                localctx = InfraGraphParser.ComprehensionContext(self, localctx)
                self.enterOuterAlt(localctx, 9)
                self.state = 392
                self.match(InfraGraphParser.LBRACK)
                self.state = 393
                self.expr(0)
                self.state = 394
                self.match(InfraGraphParser.FOR)
                self.state = 395
                self.name()
                self.state = 396
                self.match(InfraGraphParser.IN)
                self.state = 397
                self.expr(0)
                self.state = 400
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==12:
                    self.state = 398
                    self.match(InfraGraphParser.IF)
                    self.state = 399
                    self.expr(0)


                self.state = 402
                self.match(InfraGraphParser.RBRACK)
                pass

            elif la_ == 10:
                localctx = InfraGraphParser.ListLitContext(self, localctx)
                self.enterOuterAlt(localctx, 10)
                self.state = 404
                self.match(InfraGraphParser.LBRACK)
                self.state = 416
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if (((_la) & ~0x3f) == 0 and ((1 << _la) & 1774453445768515712) != 0):
                    self.state = 405
                    self.expr(0)
                    self.state = 410
                    self._errHandler.sync(self)
                    _alt = self._interp.adaptivePredict(self._input,47,self._ctx)
                    while _alt!=2 and _alt!=ATN.INVALID_ALT_NUMBER:
                        if _alt==1:
                            self.state = 406
                            self.match(InfraGraphParser.COMMA)
                            self.state = 407
                            self.expr(0) 
                        self.state = 412
                        self._errHandler.sync(self)
                        _alt = self._interp.adaptivePredict(self._input,47,self._ctx)

                    self.state = 414
                    self._errHandler.sync(self)
                    _la = self._input.LA(1)
                    if _la==50:
                        self.state = 413
                        self.match(InfraGraphParser.COMMA)




                self.state = 418
                self.match(InfraGraphParser.RBRACK)
                pass

            elif la_ == 11:
                localctx = InfraGraphParser.CondExprContext(self, localctx)
                self.enterOuterAlt(localctx, 11)
                self.state = 419
                self.match(InfraGraphParser.IF)
                self.state = 420
                self.expr(0)
                self.state = 421
                self.match(InfraGraphParser.THEN)
                self.state = 422
                self.expr(0)
                self.state = 423
                self.match(InfraGraphParser.ELSE)
                self.state = 424
                self.expr(0)
                pass


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class IndexContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser


        def getRuleIndex(self):
            return InfraGraphParser.RULE_index

     
        def copyFrom(self, ctx:ParserRuleContext):
            super().copyFrom(ctx)



    class SliceIndexContext(IndexContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.IndexContext
            super().__init__(parser)
            self.lo = None # ExprContext
            self.hi = None # ExprContext
            self.step = None # ExprContext
            self.copyFrom(ctx)

        def COLON(self, i:int=None):
            if i is None:
                return self.getTokens(InfraGraphParser.COLON)
            else:
                return self.getToken(InfraGraphParser.COLON, i)
        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ExprContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ExprContext,i)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitSliceIndex" ):
                return visitor.visitSliceIndex(self)
            else:
                return visitor.visitChildren(self)


    class AllIndexContext(IndexContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.IndexContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def STAR(self):
            return self.getToken(InfraGraphParser.STAR, 0)

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitAllIndex" ):
                return visitor.visitAllIndex(self)
            else:
                return visitor.visitChildren(self)


    class OneIndexContext(IndexContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a InfraGraphParser.IndexContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitOneIndex" ):
                return visitor.visitOneIndex(self)
            else:
                return visitor.visitChildren(self)



    def index(self):

        localctx = InfraGraphParser.IndexContext(self, self._ctx, self.state)
        self.enterRule(localctx, 60, self.RULE_index)
        self._la = 0 # Token type
        try:
            self.state = 443
            self._errHandler.sync(self)
            la_ = self._interp.adaptivePredict(self._input,55,self._ctx)
            if la_ == 1:
                localctx = InfraGraphParser.AllIndexContext(self, localctx)
                self.enterOuterAlt(localctx, 1)
                self.state = 428
                self.match(InfraGraphParser.STAR)
                pass

            elif la_ == 2:
                localctx = InfraGraphParser.SliceIndexContext(self, localctx)
                self.enterOuterAlt(localctx, 2)
                self.state = 430
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if (((_la) & ~0x3f) == 0 and ((1 << _la) & 1774453445768515712) != 0):
                    self.state = 429
                    localctx.lo = self.expr(0)


                self.state = 432
                self.match(InfraGraphParser.COLON)
                self.state = 434
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if (((_la) & ~0x3f) == 0 and ((1 << _la) & 1774453445768515712) != 0):
                    self.state = 433
                    localctx.hi = self.expr(0)


                self.state = 440
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==51:
                    self.state = 436
                    self.match(InfraGraphParser.COLON)
                    self.state = 438
                    self._errHandler.sync(self)
                    _la = self._input.LA(1)
                    if (((_la) & ~0x3f) == 0 and ((1 << _la) & 1774453445768515712) != 0):
                        self.state = 437
                        localctx.step = self.expr(0)




                pass

            elif la_ == 3:
                localctx = InfraGraphParser.OneIndexContext(self, localctx)
                self.enterOuterAlt(localctx, 3)
                self.state = 442
                self.expr(0)
                pass


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ArgsContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def arg(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(InfraGraphParser.ArgContext)
            else:
                return self.getTypedRuleContext(InfraGraphParser.ArgContext,i)


        def COMMA(self, i:int=None):
            if i is None:
                return self.getTokens(InfraGraphParser.COMMA)
            else:
                return self.getToken(InfraGraphParser.COMMA, i)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_args

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitArgs" ):
                return visitor.visitArgs(self)
            else:
                return visitor.visitChildren(self)




    def args(self):

        localctx = InfraGraphParser.ArgsContext(self, self._ctx, self.state)
        self.enterRule(localctx, 62, self.RULE_args)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 445
            self.arg()
            self.state = 450
            self._errHandler.sync(self)
            _alt = self._interp.adaptivePredict(self._input,56,self._ctx)
            while _alt!=2 and _alt!=ATN.INVALID_ALT_NUMBER:
                if _alt==1:
                    self.state = 446
                    self.match(InfraGraphParser.COMMA)
                    self.state = 447
                    self.arg() 
                self.state = 452
                self._errHandler.sync(self)
                _alt = self._interp.adaptivePredict(self._input,56,self._ctx)

            self.state = 454
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==50:
                self.state = 453
                self.match(InfraGraphParser.COMMA)


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ArgContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def expr(self):
            return self.getTypedRuleContext(InfraGraphParser.ExprContext,0)


        def name(self):
            return self.getTypedRuleContext(InfraGraphParser.NameContext,0)


        def ASSIGN(self):
            return self.getToken(InfraGraphParser.ASSIGN, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_arg

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitArg" ):
                return visitor.visitArg(self)
            else:
                return visitor.visitChildren(self)




    def arg(self):

        localctx = InfraGraphParser.ArgContext(self, self._ctx, self.state)
        self.enterRule(localctx, 64, self.RULE_arg)
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 459
            self._errHandler.sync(self)
            la_ = self._interp.adaptivePredict(self._input,58,self._ctx)
            if la_ == 1:
                self.state = 456
                self.name()
                self.state = 457
                self.match(InfraGraphParser.ASSIGN)


            self.state = 461
            self.expr(0)
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class NameContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser

        def IDENT(self):
            return self.getToken(InfraGraphParser.IDENT, 0)

        def QIDENT(self):
            return self.getToken(InfraGraphParser.QIDENT, 0)

        def getRuleIndex(self):
            return InfraGraphParser.RULE_name

        def accept(self, visitor:ParseTreeVisitor):
            if hasattr( visitor, "visitName" ):
                return visitor.visitName(self)
            else:
                return visitor.visitChildren(self)




    def name(self):

        localctx = InfraGraphParser.NameContext(self, self._ctx, self.state)
        self.enterRule(localctx, 66, self.RULE_name)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 463
            _la = self._input.LA(1)
            if not(_la==59 or _la==60):
                self._errHandler.recoverInline(self)
            else:
                self._errHandler.reportMatch(self)
                self.consume()
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx



    def sempred(self, localctx:RuleContext, ruleIndex:int, predIndex:int):
        if self._predicates == None:
            self._predicates = dict()
        self._predicates[28] = self.expr_sempred
        pred = self._predicates.get(ruleIndex, None)
        if pred is None:
            raise Exception("No predicate with index:" + str(ruleIndex))
        else:
            return pred(localctx, predIndex)

    def expr_sempred(self, localctx:ExprContext, predIndex:int):
            if predIndex == 0:
                return self.precpred(self._ctx, 9)
         

            if predIndex == 1:
                return self.precpred(self._ctx, 7)
         

            if predIndex == 2:
                return self.precpred(self._ctx, 6)
         

            if predIndex == 3:
                return self.precpred(self._ctx, 5)
         

            if predIndex == 4:
                return self.precpred(self._ctx, 4)
         

            if predIndex == 5:
                return self.precpred(self._ctx, 2)
         

            if predIndex == 6:
                return self.precpred(self._ctx, 1)
         

            if predIndex == 7:
                return self.precpred(self._ctx, 12)
         

            if predIndex == 8:
                return self.precpred(self._ctx, 11)
         

            if predIndex == 9:
                return self.precpred(self._ctx, 10)
         




